import {
  CloseOutlined,
  ExclamationCircleOutlined,
  LoadingOutlined,
  PaperClipOutlined,
  ReloadOutlined,
} from '@ant-design/icons';
import { formatFileSize } from '@switchboard/shared';
import { Button, Progress } from 'antd';
import type { AttachmentItem } from '../hooks/use-attachments.ts';
import './attachment-chips.css';

/**
 * The reply's files, each with its state: uploading with progress, done with its size, or not attached with
 * the reason on its own line under the whole name (a failure that may pass next time offers Retry; a file
 * that can never be accepted offers only Remove).
 */
export function AttachmentChips({
  files,
}: {
  files: { items: AttachmentItem[]; retry(key: string): void; remove(key: string): void };
}) {
  if (files.items.length === 0) return null;
  return (
    <ul className="ib-composer-chips" aria-label="Attachments" style={{ listStyle: 'none', margin: 0 }}>
      {files.items.map((item) => {
        const problem = item.state === 'failed' || item.state === 'refused';
        return (
          <li
            key={item.key}
            className="ib-chip"
            data-state={item.state}
            aria-busy={item.state === 'uploading'}
          >
            {item.state === 'uploading' ? (
              <LoadingOutlined aria-hidden="true" />
            ) : problem ? (
              <ExclamationCircleOutlined aria-hidden="true" className="ib-chip-error-icon" />
            ) : (
              <PaperClipOutlined aria-hidden="true" />
            )}
            <span className="ib-chip-name" title={item.name}>
              {item.name}
            </span>
            {item.state === 'uploading' ? (
              <Progress
                percent={Math.round(item.progress * 100)}
                size="small"
                showInfo={false}
                style={{ width: 56, margin: 0 }}
                aria-label={`Uploading ${item.name}: ${Math.round(item.progress * 100)}%`}
              />
            ) : problem ? null : (
              <small>{formatFileSize(item.size)}</small>
            )}
            {item.state === 'failed' && (
              <Button
                type="text"
                size="small"
                icon={<ReloadOutlined />}
                aria-label={`Retry ${item.name}`}
                onClick={() => files.retry(item.key)}
              />
            )}
            <Button
              type="text"
              size="small"
              icon={<CloseOutlined />}
              aria-label={`Remove ${item.name}`}
              onClick={() => files.remove(item.key)}
            />
            {problem && (
              <small className="ib-chip-error" role="alert">
                {item.error}
              </small>
            )}
          </li>
        );
      })}
    </ul>
  );
}
