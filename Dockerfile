# One build, two images: docker build --target api-server . / --target workflow-worker .
# (docker-compose.yml builds both.)
# The console is built in a Node image; the Maven build then packages its files (exec.skip: no npm
# in the JDK image).
FROM node:20-bookworm-slim AS console
WORKDIR /console
COPY console/package.json console/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY console/ ./
RUN CONSOLE_OUT_DIR=/console/out npm run build

FROM eclipse-temurin:17-jdk AS build
WORKDIR /src
COPY .mvn .mvn
COPY mvnw pom.xml ./
COPY workflow-definitions workflow-definitions
COPY service-shared service-shared
COPY workflow-worker workflow-worker
COPY console/pom.xml console/pom.xml
COPY --from=console /console/out console/target/classes/META-INF/resources/console
COPY api-server api-server
RUN ./mvnw -q -B -DskipTests -Dspotless.check.skip=true -Dexec.skip=true package

# each image runs its jar as the build extracts it (the application's jar and lib/ beside it)
FROM eclipse-temurin:17-jre AS api-server
WORKDIR /app
COPY --from=build /src/api-server/target/app/ ./
EXPOSE 8080
ENTRYPOINT ["java", "-XX:MaxRAMPercentage=75", "-jar", "api-server-0.1.0-SNAPSHOT.jar"]

FROM eclipse-temurin:17-jre AS workflow-worker
WORKDIR /app
COPY --from=build /src/workflow-worker/target/app/ ./
ENTRYPOINT ["java", "-XX:MaxRAMPercentage=75", "-jar", "workflow-worker-0.1.0-SNAPSHOT-exec.jar"]
