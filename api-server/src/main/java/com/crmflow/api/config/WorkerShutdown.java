package com.crmflow.api.config;

import io.temporal.worker.WorkerFactory;
import java.util.concurrent.TimeUnit;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Stops polling and lets running tasks finish when the application closes, before the database pool
 * and the Temporal connection go away, so no activity dies half-way through a write.
 */
@Component
class WorkerShutdown {

  private final WorkerFactory workerFactory;

  WorkerShutdown(WorkerFactory workerFactory) {
    this.workerFactory = workerFactory;
  }

  @EventListener(ContextClosedEvent.class)
  void stopWorkers() throws InterruptedException {
    if (workerFactory.isStarted() && !workerFactory.isShutdown()) {
      workerFactory.shutdown();
      workerFactory.awaitTermination(20, TimeUnit.SECONDS);
    }
  }
}
