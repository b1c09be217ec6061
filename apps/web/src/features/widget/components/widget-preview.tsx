import { readableAccent, WIDGET_FIELDS, type WidgetFieldKey, type WidgetFields } from '@switchboard/shared';

type Props = {
  color: string;
  greeting: string;
  title: string;
  /** The location's name under the title, when the business has several. */
  subtitle: string | null;
  /** The business's logo from Business profile. */
  logo: string | null;
  fields: WidgetFields;
};

const LABELS: Record<WidgetFieldKey, string> = { name: 'Your name', phone: 'Phone number', email: 'Email' };

const input = {
  height: 34,
  border: '1px solid #ccd0d5',
  borderRadius: 8,
  background: '#fff',
} as const;

/**
 * The chat panel and bubble as a visitor first sees them, drawn from the unsaved values so the owner sees a
 * change before saving. It copies the chat frame's look (apps/widget/src/frame.css); it is a picture, not
 * the chat: nothing here can be typed into or sent.
 */
export function WidgetPreview({ color, greeting, title, subtitle, logo, fields }: Props) {
  // As the chat draws it: the colour deepened where white words on it would not read.
  const accent = readableAccent(color);
  return (
    <figure
      aria-label="Widget preview"
      style={{
        margin: 0,
        padding: 20,
        background: '#eef1f5',
        borderRadius: 12,
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'flex-end',
        gap: 12,
        fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
        fontSize: 14,
        color: '#1f2329',
      }}
    >
      <div
        style={{
          width: '100%',
          maxWidth: 340,
          borderRadius: 14,
          overflow: 'hidden',
          background: '#fff',
          boxShadow: '0 8px 30px rgba(0,0,0,.18)',
        }}
      >
        <div
          data-testid="widget-preview-header"
          style={{
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'space-between',
            gap: 10,
            padding: '14px 16px',
            background: accent.fill,
            color: accent.text,
          }}
        >
          <span style={{ display: 'flex', alignItems: 'center', gap: 10, minWidth: 0 }}>
            {logo && (
              <img
                src={logo}
                alt="Your logo"
                style={{
                  width: 28,
                  height: 28,
                  borderRadius: 6,
                  objectFit: 'contain',
                  background: '#fff',
                  flexShrink: 0,
                }}
              />
            )}
            <span style={{ display: 'flex', flexDirection: 'column', gap: 2, minWidth: 0 }}>
              <span style={{ fontWeight: 600, fontSize: 15, overflowWrap: 'anywhere' }}>{title}</span>
              {subtitle && <span style={{ fontSize: 13, overflowWrap: 'anywhere' }}>{subtitle}</span>}
            </span>
          </span>
          <span aria-hidden="true" style={{ fontSize: 20, lineHeight: 1 }}>
            ×
          </span>
        </div>
        <div style={{ display: 'flex', flexDirection: 'column', gap: 12, padding: 16 }}>
          <p style={{ margin: 0, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{greeting}</p>
          {WIDGET_FIELDS.filter((key) => fields[key].ask).map((key) => (
            <div key={key} style={{ display: 'flex', flexDirection: 'column', gap: 4, fontSize: 13 }}>
              <span>{fields[key].required ? LABELS[key] : `${LABELS[key]} (optional)`}</span>
              <div style={input} />
            </div>
          ))}
          <div
            style={{
              background: accent.fill,
              color: accent.text,
              borderRadius: 8,
              padding: '9px 14px',
              textAlign: 'center',
            }}
          >
            Start chat
          </div>
        </div>
      </div>
      <div
        aria-hidden="true"
        style={{
          width: 56,
          height: 56,
          borderRadius: '50%',
          background: color,
          color: '#fff',
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          boxShadow: '0 4px 14px rgba(0,0,0,.25)',
        }}
      >
        <svg width="26" height="26" viewBox="0 0 24 24" fill="currentColor" aria-hidden="true">
          <path d="M4 3h16a2 2 0 0 1 2 2v11a2 2 0 0 1-2 2H9l-5 4v-4H4a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2z" />
        </svg>
      </div>
      <figcaption style={{ alignSelf: 'stretch', fontSize: 12, color: '#475467' }}>
        Preview: what a visitor sees when they open the chat on your website.
      </figcaption>
    </figure>
  );
}
