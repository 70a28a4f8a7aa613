# Crib Search: production image on Node 20 (Debian bookworm).
FROM node:20-bookworm-slim AS build
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
RUN npx remix build && npm prune --omit=dev

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production PORT=3000 CATALOG_DB=/data/catalog.db
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/public ./public
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/scripts/serve.mjs /app/scripts/workers.mjs ./scripts/
VOLUME /data
EXPOSE 3000
USER node
# One worker per CPU the process may run on; set WEB_CONCURRENCY when the container has a CPU quota.
CMD ["node", "scripts/serve.mjs", "build/index.js"]
