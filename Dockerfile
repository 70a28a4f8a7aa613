# Crib Search: the production image (Node 20, Debian bookworm).
#   docker build -t crib-search .
#   docker run -p 3000:3000 -v crib-data:/data crib-search
# The catalogue (and sessions.db, signals.db beside it) lives in the /data volume; the first
# start fills it with sample data. Settings come from the environment (.env.example).
# Several replicas behind a balancer, sharing PostgreSQL: compose.yaml, and docs/operations.md.

# Build: every dependency (the Remix compiler is a dev dependency), the same commands as the README.
FROM node:20-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 compiles SQLite when no prebuilt binary can be downloaded.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
RUN npm run build
# Only the production dependencies go on; the compiled better-sqlite3 stays as it was built.
RUN npm prune --omit=dev

# Run: production dependencies, the build and the server scripts, as an unprivileged user.
FROM node:20-bookworm-slim
WORKDIR /app
# One server process per container (scale with replicas, not workers); a stopping container keeps
# answering, not ready, for 5 s so that its balancer takes it out before it stops accepting.
ENV NODE_ENV=production PORT=3000 CATALOG_DB=/data/catalog.db WEB_CONCURRENCY=1 SHUTDOWN_DRAIN_MS=5000
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/public ./public
COPY --from=build /app/scripts/start.mjs /app/scripts/serve.mjs /app/scripts/workers.mjs /app/scripts/server.mjs ./scripts/
RUN mkdir -p /data && chown node:node /data
VOLUME /data
USER node
EXPOSE 3000
# Liveness as the API reports it (200 while the process serves, "degraded" included); it answers
# from state kept in the background, in milliseconds, whatever Fusion does.
HEALTHCHECK --interval=30s --timeout=5s --start-period=120s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Node itself is PID 1 (no npm, no shell between): the orchestrator's SIGTERM reaches the server,
# which stops gracefully (scripts/server.mjs) and exits 0.
STOPSIGNAL SIGTERM
CMD ["node", "scripts/serve.mjs", "build/index.js"]
