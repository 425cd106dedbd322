# Portal's production image (decision 225): the web app and the server built once in the first stage; the second
# runs `node apps/server/dist/server.js` (npm run start:server, no TypeScript compiled at start) as the user node.
# compose.yaml runs two of these on PostgreSQL behind nginx; apps/server/src/deploy-image.test.ts keeps both files in
# line with the repository and README.

FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY packages/contract/package.json packages/contract/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY e2e/package.json e2e/
RUN npm ci --strict-allow-scripts --no-audit --no-fund
COPY . .
ARG BUILD_ID=local
ENV BUILD_ID=${BUILD_ID}
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:22-bookworm-slim
ENV NODE_ENV=production PORT=8080 HOST=0.0.0.0 DATABASE_URL=/app/data
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/packages/contract packages/contract
# The bundle reads the migrations and the sign-in pages' files beside their sources (decision 223).
COPY --from=build /app/apps/server apps/server
COPY --from=build /app/apps/web/dist apps/web/dist
COPY --from=build /app/apps/web/public/favicon.svg apps/web/public/favicon.svg
RUN mkdir -p /app/data /app/files && chown node:node /app/data /app/files
USER node
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "apps/server/dist/server.js"]
