import { lazy } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import AppLayout from './layouts/app-layout.tsx';
import { pageLoaders } from './pages.ts';
import { APP_HOME, paths } from './paths.ts';

// Every screen is its own chunk, so the settings pages load only when opened.
const InboxRoute = lazy(pageLoaders[paths.inbox]);
const CustomersRoute = lazy(pageLoaders[paths.customers]);
const LocationsRoute = lazy(pageLoaders[paths.locations]);
const BusinessSettingsRoute = lazy(pageLoaders[paths.businessSettings]);
const SetupRoute = lazy(pageLoaders[paths.setup]);
const ContactsRoute = lazy(pageLoaders[paths.contacts]);
const ChannelsRoute = lazy(pageLoaders[paths.channels]);
const WidgetRoute = lazy(pageLoaders[paths.widget]);
const TemplatesRoute = lazy(pageLoaders[paths.templates]);
const LabelsRoute = lazy(pageLoaders[paths.labels]);
const AssistantRoute = lazy(pageLoaders[paths.assistant]);
const InvoicesRoute = lazy(pageLoaders[paths.invoices]);
const ReviewsRoute = lazy(pageLoaders[paths.reviews]);
const PaymentsRoute = lazy(pageLoaders[paths.payments]);
const SubscriptionRoute = lazy(pageLoaders[paths.subscription]);
const TeamRoute = lazy(pageLoaders[paths.team]);
const NotificationsRoute = lazy(pageLoaders[paths.notifications]);
const AnalyticsRoute = lazy(pageLoaders[paths.analytics]);
const AdminRoute = lazy(pageLoaders[paths.admin]);
const AuditLogRoute = lazy(pageLoaders[paths.auditLog]);
const SandboxBillingPortalRoute = lazy(pageLoaders[paths.sandboxBillingPortal]);
const ProfileRoute = lazy(pageLoaders[paths.profile]);
const SandboxRoute = lazy(pageLoaders[paths.sandbox]);

/**
 * The signed-in app's routes, in the app layout: loaded with it, after sign-in, so the login page carries
 * none of this table. An unknown address goes to the inbox.
 */
export default function SignedInRoutes() {
  return (
    <Routes>
      <Route element={<AppLayout />}>
        {/* One route for the list and an open enquiry, so opening one keeps the list where it was. */}
        <Route path={`${paths.inbox}/:enquiryId?`} element={<InboxRoute />} />
        <Route path={paths.customers} element={<CustomersRoute />} />
        <Route path={paths.locations} element={<LocationsRoute />} />
        <Route path={paths.businessSettings} element={<BusinessSettingsRoute />} />
        <Route path={paths.setup} element={<SetupRoute />} />
        <Route path={paths.contacts} element={<ContactsRoute />} />
        <Route path={paths.channels} element={<ChannelsRoute />} />
        <Route path={paths.widget} element={<WidgetRoute />} />
        <Route path={paths.templates} element={<TemplatesRoute />} />
        <Route path={paths.labels} element={<LabelsRoute />} />
        <Route path={paths.assistant} element={<AssistantRoute />} />
        <Route path={paths.invoices} element={<InvoicesRoute />} />
        <Route path={paths.reviews} element={<ReviewsRoute />} />
        <Route path={paths.payments} element={<PaymentsRoute />} />
        <Route path={paths.subscription} element={<SubscriptionRoute />} />
        <Route path={paths.team} element={<TeamRoute />} />
        <Route path={paths.notifications} element={<NotificationsRoute />} />
        <Route path={paths.analytics} element={<AnalyticsRoute />} />
        <Route path={paths.admin} element={<AdminRoute />} />
        <Route path={paths.auditLog} element={<AuditLogRoute />} />
        <Route path={paths.sandboxBillingPortal} element={<SandboxBillingPortalRoute />} />
        <Route path={paths.profile} element={<ProfileRoute />} />
        <Route path={paths.sandbox} element={<SandboxRoute />} />
        <Route path="*" element={<Navigate to={APP_HOME} replace />} />
      </Route>
    </Routes>
  );
}
