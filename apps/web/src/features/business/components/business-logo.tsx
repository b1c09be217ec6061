import { DeleteOutlined, ShopOutlined, UploadOutlined } from '@ant-design/icons';
import { formatFileSize } from '@switchboard/shared';
import { Avatar, Button, Flex, Popconfirm, Typography } from 'antd';
import { useRef, useState } from 'react';
import { notify } from '@/lib/notifier.ts';
import { useDeleteBusinessImage } from '../api/delete-business-image.ts';
import { useUploadBusinessImage } from '../api/upload-business-image.ts';

const ACCEPTED = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'];
// The server's default image limit; checking here saves uploading a file it would refuse.
const MAX_BYTES = 5 * 1024 * 1024;

type Props = { name: string; image: string | null; canManage: boolean };

export function BusinessLogo({ name, image, canManage }: Props) {
  const input = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const upload = useUploadBusinessImage();
  const remove = useDeleteBusinessImage();

  const choose = (file: File | undefined) => {
    if (!file) return;
    if (!ACCEPTED.includes(file.type)) {
      setProblem('Choose a PNG, JPEG, WebP or GIF image.');
      return;
    }
    if (file.size > MAX_BYTES) {
      setProblem(`That image is ${formatFileSize(file.size)}; the limit is ${formatFileSize(MAX_BYTES)}.`);
      return;
    }
    setProblem(null);
    upload.mutate(file, { onSuccess: () => notify.success('Logo updated') });
  };

  return (
    <Flex align="center" gap={20} wrap>
      <Avatar
        shape="square"
        size={80}
        src={image ?? undefined}
        icon={image ? undefined : <ShopOutlined />}
        alt={`${name} logo`}
        style={{ flexShrink: 0 }}
      />
      <Flex vertical gap={8}>
        <Flex gap={8} wrap>
          <Button
            icon={<UploadOutlined />}
            loading={upload.isPending}
            disabled={!canManage}
            onClick={() => input.current?.click()}
          >
            {image ? 'Replace logo' : 'Upload logo'}
          </Button>
          {image && (
            <Popconfirm
              title="Remove the logo?"
              okText="Remove"
              okButtonProps={{ danger: true }}
              disabled={!canManage}
              onConfirm={() => remove.mutateAsync().then(() => notify.success('Logo removed'))}
            >
              <Button danger icon={<DeleteOutlined />} loading={remove.isPending} disabled={!canManage}>
                Remove
              </Button>
            </Popconfirm>
          )}
        </Flex>
        <Typography.Text
          type={problem ? 'danger' : 'secondary'}
          style={{ fontSize: 13 }}
          role={problem ? 'alert' : undefined}
        >
          {problem ?? 'Square images work best. PNG, JPEG, WebP or GIF, up to 5 MB.'}
        </Typography.Text>
      </Flex>
      <input
        ref={input}
        type="file"
        accept={ACCEPTED.join(',')}
        aria-label="Logo file"
        hidden
        onChange={(e) => {
          choose(e.target.files?.[0]);
          e.target.value = '';
        }}
      />
    </Flex>
  );
}
