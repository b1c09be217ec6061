import { lazy } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { GuestOnly, RequireSession } from './guards.tsx';
import { pageLoaders } from './pages.ts';
import { APP_HOME, paths } from './paths.ts';
import { RootLayout } from './root-layout.tsx';

// Every screen is its own chunk, so the login page downloads none of the settings pages.
const LoginRoute = lazy(pageLoaders.login);
const AppLayout = lazy(pageLoaders.appLayout);
const InboxRoute = lazy(pageLoaders[paths.inbox]);
const CustomersRoute = lazy(pageLoaders[paths.customers]);
const LocationsRoute = lazy(pageLoaders[paths.locations]);
const BusinessSettingsRoute = lazy(pageLoaders[paths.businessSettings]);
const ContactsRoute = lazy(pageLoaders[paths.contacts]);
const ChannelsRoute = lazy(pageLoaders[paths.channels]);
const WidgetRoute = lazy(pageLoaders[paths.widget]);
const TemplatesRoute = lazy(pageLoaders[paths.templates]);
const LabelsRoute = lazy(pageLoaders[paths.labels]);
const ProfileRoute = lazy(pageLoaders[paths.profile]);
const SandboxRoute = lazy(pageLoaders[paths.sandbox]);
const ContactRoute = lazy(pageLoaders[paths.contact]);

/**
 * The route table. Declarative routes rather than a data router: nothing here uses loaders or actions
 * (server data lives in TanStack Query), and it halves React Router's share of the login page.
 */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<RootLayout />}>
        <Route
          path={paths.login}
          element={
            <GuestOnly>
              <LoginRoute />
            </GuestOnly>
          }
        />
        <Route
          element={
            <RequireSession>
              <AppLayout />
            </RequireSession>
          }
        >
          {/* One route for the list and an open enquiry, so opening one keeps the list where it was. */}
          <Route path={`${paths.inbox}/:enquiryId?`} element={<InboxRoute />} />
          <Route path={paths.customers} element={<CustomersRoute />} />
          <Route path={paths.locations} element={<LocationsRoute />} />
          <Route path={paths.businessSettings} element={<BusinessSettingsRoute />} />
          <Route path={paths.contacts} element={<ContactsRoute />} />
          <Route path={paths.channels} element={<ChannelsRoute />} />
          <Route path={paths.widget} element={<WidgetRoute />} />
          <Route path={paths.templates} element={<TemplatesRoute />} />
          <Route path={paths.labels} element={<LabelsRoute />} />
          <Route path={paths.profile} element={<ProfileRoute />} />
          <Route path={paths.sandbox} element={<SandboxRoute />} />
        </Route>
        {/* Public: a business's customers fill it in, signed in or not. */}
        <Route path={paths.contact} element={<ContactRoute />} />
        <Route path="*" element={<Navigate to={APP_HOME} replace />} />
      </Route>
    </Routes>
  );
}
