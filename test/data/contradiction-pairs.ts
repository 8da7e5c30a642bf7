/** Pairs written like real notes. Conflicting: each pair states incompatible facts on one subject. */
export const CONFLICTING: [string, string][] = [
  ['The staging database listens on port 5432.', 'The staging database listens on port 6543 since the pgbouncer change.'],
  ['The data pipeline runs on Python 3.10; do not use match statements.', 'The data pipeline was upgraded to Python 3.12 last month.'],
  ['The partner API allows 100 requests a minute per key.', 'The partner API allows 1000 requests a minute per key after the plan upgrade.'],
  ['Write unit tests with Jest and keep snapshots next to the component.', 'Unit tests use Vitest now; Jest was removed from the repo.'],
  ['Install dependencies with npm ci in CI.', 'CI installs dependencies with pnpm install --frozen-lockfile.'],
  ['Always squash commits when merging pull requests.', 'Never squash commits when merging pull requests; keep the history.'],
  ['Enable the feature flag new_checkout in production.', 'Disable the feature flag new_checkout in production until the fix ships.'],
  ['Indent Python files with tabs in this repo.', 'Indent Python files with spaces, four per level.'],
  ['The HTTP client timeout is 30 seconds for the billing service.', 'The HTTP client timeout for the billing service is 10 seconds.'],
  ['The build image uses Node 18.', 'The build image was bumped to Node 20 in March.'],
  ['Run the local stack with docker compose up.', 'Run the local stack with podman compose up; docker is not installed on the dev boxes.'],
  ['The user prefers answers in Korean.', 'The user prefers answers in English.'],
  ['Open pull requests against the develop branch.', 'Open pull requests against main; the develop branch is gone.'],
  ['The nightly backup runs at 02:00 UTC.', 'The nightly backup runs at 04:00 UTC since the migration.'],
  ['Retry failed webhook deliveries 3 times.', 'Retry failed webhook deliveries 5 times with backoff.'],
  ['Deploy the API to us-east-1.', 'Deploy the API to eu-west-1 only; us-east-1 is decommissioned.'],
  ['Format TypeScript with Prettier.', 'Format TypeScript with Biome; Prettier was dropped.'],
  ['Run the database migrations automatically on deploy.', 'Do not run the database migrations automatically on deploy; run them by hand.'],
  ['Pin React to version 17 in the web app.', 'The web app is on React 18.'],
  ['Set the log level to debug in staging.', 'Set the log level to info in staging; debug logs filled the disk.'],
];

/** Consistent: same subject, no conflict. */
export const CONSISTENT: [string, string][] = [
  ['Install dependencies with pnpm install.', 'pnpm install also links the workspace packages.'],
  ['The staging database listens on port 5432.', 'Connect to the staging database with psql using the read-only user.'],
  ['Always squash commits when merging pull requests.', 'Write a clear title when merging pull requests; it becomes the squash commit message.'],
  ['Use Vitest for unit tests.', 'Vitest runs in watch mode with pnpm test -- --watch.'],
  ['The partner API allows 100 requests a minute per key.', 'Cache partner API responses for five minutes to stay under the limit.'],
  ['Never commit .env files.', 'Keep .env.example up to date when adding a variable.'],
  ['Deploy the API to us-east-1.', 'The API deploy takes about 8 minutes.'],
  ['The nightly backup runs at 02:00 UTC.', 'Nightly backups are kept for 30 days.'],
  ['Use Python 3.12 for new services.', 'New services need a README and a health endpoint.'],
  ['Disable telemetry in the CLI config.', 'The CLI config lives in ~/.config/tool/config.toml.'],
  ['Indent Python files with four spaces.', 'Run ruff format on Python files before committing.'],
  ['Review pull requests within one day.', 'Pull requests need two approvals before merging.'],
];

/**
 * Held out: written after the detector was tuned on the sets above, measured without changing it.
 * Its recall is reported in BENCHMARKS.md as the honest estimate.
 */
export const HELD_OUT_CONFLICTING: [string, string][] = [
  ['The worker queue uses Redis 6 on the shared cluster.', 'The worker queue moved to Redis 7 on its own cluster.'],
  ['Ship hotfixes straight to production after one review.', 'Never ship hotfixes straight to production; they go through staging first.'],
  ['Lint the Python code with flake8 before pushing.', 'Lint the Python code with ruff; flake8 was removed.'],
  ['The mobile app supports iOS 15 and later.', 'The mobile app supports iOS 16 and later since the SDK update.'],
  ['The design system uses Tailwind for styling.', 'The design system dropped Tailwind; styling is plain CSS modules now.'],
  ['Keep the session cookie lifetime at 7 days.', 'The session cookie lifetime is 24 hours after the security review.'],
  ['The user wants commit messages in the imperative mood.', 'The user wants commit messages in the past tense.'],
  ['Build the docs site with Webpack.', 'The docs site builds with Vite; Webpack is gone.'],
  ['Store uploads in the uploads bucket in eu-central-1.', 'Store uploads in the uploads bucket in us-west-2.'],
  ['Run end-to-end tests on every pull request.', 'Do not run end-to-end tests on every pull request; they run nightly.'],
];

export const HELD_OUT_CONSISTENT: [string, string][] = [
  ['The worker queue uses Redis 7.', 'Flush the worker queue only with the ops runbook.'],
  ['Ship hotfixes after one review.', 'Hotfix branches are named hotfix/<ticket>.'],
  ['Lint the Python code with ruff.', 'Ruff reads its settings from pyproject.toml.'],
  ['The mobile app supports iOS 16 and later.', 'The mobile app release notes go in the store listing.'],
  ['Keep the session cookie lifetime at 24 hours.', 'The session cookie is HttpOnly and Secure.'],
  ['Build the docs site with Vite.', 'The docs site deploys from the docs branch.'],
  ['Run end-to-end tests nightly.', 'End-to-end tests need the seeded test database.'],
  ['The user wants commit messages in the imperative mood.', 'The user wants pull request descriptions to list risks.'],
];
