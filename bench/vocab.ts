/** Word lists the corpus generators draw from: a bounded, realistic vocabulary. */

export const DIRS = [
  "src",
  "lib",
  "app",
  "packages/core/src",
  "packages/web/src",
  "packages/api/src",
  "server",
  "client",
  "test",
  "scripts",
] as const;

export const MODULES = [
  "components",
  "hooks",
  "routes",
  "services",
  "models",
  "utils",
  "store",
  "middleware",
  "controllers",
  "config",
  "auth",
  "billing",
  "checkout",
  "orders",
  "users",
  "search",
  "payments",
  "notifications",
  "reports",
  "admin",
] as const;

export const NAMES = [
  "Button",
  "Modal",
  "UserProfile",
  "OrderList",
  "CartSummary",
  "InvoiceTable",
  "SearchBar",
  "LoginForm",
  "Dashboard",
  "useDebounce",
  "useAuth",
  "apiClient",
  "rateLimiter",
  "sessionStore",
  "paymentGateway",
  "emailQueue",
  "logger",
  "validateInput",
  "parseConfig",
  "formatCurrency",
  "retryPolicy",
  "cacheLayer",
  "featureFlags",
  "migrationRunner",
] as const;

export const EXTS = [".ts", ".tsx", ".js", ".mjs"] as const;

export const PACKAGES = [
  "react",
  "react-dom",
  "lodash",
  "express",
  "typescript",
  "@babel/core",
  "@babel/preset-env",
  "webpack",
  "eslint",
  "prettier",
  "jest",
  "vitest",
  "axios",
  "zod",
  "date-fns",
  "uuid",
  "pg",
  "redis",
  "ioredis",
  "@types/node",
  "chalk",
  "commander",
  "yargs",
  "debug",
  "semver",
  "glob",
  "rimraf",
  "ts-node",
  "esbuild",
  "postcss",
] as const;

export const TS_ERRORS = [
  "TS2345: Argument of type 'string' is not assignable to parameter of type 'number'.",
  "TS2322: Type 'undefined' is not assignable to type 'User'.",
  "TS2339: Property 'items' does not exist on type 'OrderResponse'.",
  "TS7006: Parameter 'event' implicitly has an 'any' type.",
  "TS2307: Cannot find module './config' or its corresponding type declarations.",
  "TS18048: 'session.user' is possibly 'undefined'.",
] as const;

/** Error phrases the logs contain; the search benchmark queries some of them. */
export const ERROR_PHRASES = [
  "Error: connect ECONNREFUSED 127.0.0.1:5432",
  "TypeError: Cannot read properties of undefined (reading 'map')",
  "Error: Cannot find module './config'",
  "Error: timeout of 5000ms exceeded",
  "AssertionError: expected 500 to equal 200",
  "Error: ETIMEDOUT connecting to redis://cache.internal:6379",
  "RangeError: Maximum call stack size exceeded",
  "SyntaxError: Unexpected token '<' in JSON at position 0",
  "Error: listen EADDRINUSE: address already in use :::3000",
  "UnhandledPromiseRejection: payment gateway returned 502 Bad Gateway",
] as const;

export const TEST_VERBS = [
  "renders without crashing",
  "returns 404 for a missing user",
  "retries on a transient failure",
  "rejects an expired token",
  "formats negative amounts",
  "debounces rapid input",
  "paginates the order list",
  "caches the second lookup",
  "validates the email field",
  "rolls back a failed migration",
  "sends the welcome email",
  "handles an empty cart",
] as const;

export const HTTP_PATHS = [
  "/api/v2/users/:id",
  "/api/v2/users/:id/orders",
  "/api/v2/orders/:id",
  "/api/v2/cart",
  "/api/v2/checkout",
  "/api/v2/search",
  "/api/v2/invoices/:id/pdf",
  "/healthz",
  "/api/v2/session",
  "/api/v2/products/:id/reviews",
] as const;

export const SERVICES = ["api", "worker", "gateway", "billing", "search", "auth"] as const;

export const PROSE = (
  "the a of to and in is for that with on as it by this be are from at or an was can which have not " +
  "configuration deployment request response server client cache database migration schema index query token session " +
  "timeout retry failure error warning build test release version dependency package module component service handler " +
  "middleware pipeline worker queue message event stream buffer latency throughput memory storage network endpoint " +
  "authentication authorization permission credential certificate encryption payload header cookie redirect proxy " +
  "container cluster replica shard partition transaction rollback commit branch merge review pipeline artifact " +
  "environment variable default option feature flag rollout monitoring alert metric dashboard incident recovery " +
  "performance regression benchmark profile allocation garbage collection thread process signal shutdown startup"
).split(" ");

export const MD_TOPICS = [
  "Getting started",
  "Installation",
  "Configuration",
  "Architecture",
  "Deployment",
  "Troubleshooting",
  "API reference",
  "Authentication",
  "Caching",
  "Database migrations",
  "Testing",
  "Release process",
  "Monitoring",
  "Security",
] as const;

export const JSON_STATUSES = ["active", "pending", "suspended", "archived", "trial"] as const;
export const FIRST_NAMES = ["Ada", "Grace", "Linus", "Margaret", "Ken", "Barbara", "Dennis", "Frances", "Alan", "Radia"] as const;
export const LAST_NAMES = [
  "Lovelace",
  "Hopper",
  "Torvalds",
  "Hamilton",
  "Thompson",
  "Liskov",
  "Ritchie",
  "Allen",
  "Turing",
  "Perlman",
] as const;
