// Dashboard: a page at `/dashboard` that shows training live (charts of the per-step metrics, reward
// by policy version, the serving policy version, samples waiting) and lets a user browse sessions
// and their judged turns. In: a `DashboardSource` the app builds over the trainer's steps, the
// session views and the sample store. Out: Fastify routes — the page and its static files (no CDN,
// plain JS + SVG) and a paginated JSON API under `/dashboard/api/`. With a server API key the page
// shell is public (it holds no data) and the page sends the key, from `#key=…` in its URL, as a bearer.
export { registerDashboard } from './routes.ts';
export { isDashboardShellPath, PAGE_CSP, PUBLIC_DIR } from './assets.ts';
export { StepBuffer, readStepsFile, MAX_STEPS } from './steps.ts';
export {
  createDashboardSource,
  storeStatusFields,
  summarizeSession,
  sessionsPage,
  turnsPage,
  pageOf,
  type SessionViewsLike,
  type StoreCountsLike,
} from './source.ts';
export { PAGE_DEFAULT, PAGE_MAX } from './query.ts';
export type { DashboardSource, DashboardStatus, StepPoint, SessionListItem, Page, PageRequest, MaybePromise } from './types.ts';
