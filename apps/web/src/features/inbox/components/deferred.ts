// What the inbox shows after its first paint — the open conversation, the compose dialog and the filters —
// as ONE lazy chunk. Three separate lazy chunks would each share a different slice of antd with the app
// shell, and the bundler turns every distinct slice into its own small chunk that every other page then
// downloads too (measured: +4 KB gzipped on the locations page). Import it only with import().
export { default as ComposeModal } from './compose-modal.tsx';
export { default as EnquiryView } from './enquiry-view.tsx';
export { default as FiltersPanel } from './filters-panel.tsx';
