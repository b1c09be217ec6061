import { templateParts } from '@switchboard/shared';
import { theme } from 'antd';
import type { CSSProperties } from 'react';
import { PLACEHOLDER_HINTS } from '../utils/placeholders.ts';

type Props = { body: string; style?: CSSProperties };

/** A template's text with each placeholder marked, so it is plain which parts change per customer. */
export function TemplateBody({ body, style }: Props) {
  const { token } = theme.useToken();
  let offset = 0;
  return (
    <span style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', ...style }}>
      {templateParts(body).map((part) => {
        // Where the part starts in the body: unique, and stable while the body is.
        const key = offset;
        offset += part.text.length;
        if (!part.placeholder) return <span key={key}>{part.text}</span>;
        return (
          <mark
            key={key}
            title={`Filled with ${PLACEHOLDER_HINTS[part.placeholder]}`}
            style={{
              background: token.colorPrimaryBg,
              color: token.colorPrimaryText,
              borderRadius: token.borderRadiusSM,
              padding: '0 3px',
              fontFamily: token.fontFamilyCode,
              fontSize: '0.92em',
            }}
          >
            {part.text}
          </mark>
        );
      })}
    </span>
  );
}
