// What the inbox shows after its first paint — the open conversation and the compose dialog — as ONE lazy
// chunk. Separate lazy chunks would each share a different slice of antd with the app shell, and the
// bundler turns every distinct slice into another small chunk that every page then downloads (measured:
// about +2 KB gzipped on each settings page). The filters (with the heavy date picker) stay apart, so
// opening a conversation from a link does not wait for them. Import this module only with import().
export { default as ComposeModal } from './compose-modal.tsx';
export { default as EnquiryView } from './enquiry-view.tsx';
