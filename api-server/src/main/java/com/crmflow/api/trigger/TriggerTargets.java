package com.crmflow.api.trigger;

import com.crmflow.api.flow.CanvasRepository;
import com.crmflow.api.flow.CanvasRepository.TriggerTarget;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import org.springframework.stereotype.Component;

/**
 * Where the public trigger's node ids lead (automation, node type, status, canvas version),
 * remembered between calls so that a call costs one statement instead of two. A remembered target
 * may be out of date: the run's insert checks it against what is stored at that moment ({@link
 * RunRepository#insertAccepted}, which only {@link com.crmflow.api.run.RunBeginnings} calls), and
 * the trigger looks the target up again when that check fails.
 */
@Component
class TriggerTargets {

  private record Key(UUID tenantId, String nodeId) {}

  private final CanvasRepository canvases;
  private final Cache<Key, TriggerTarget> remembered =
      Caffeine.newBuilder().maximumSize(10_000).expireAfterAccess(Duration.ofMinutes(10)).build();

  TriggerTargets(CanvasRepository canvases) {
    this.canvases = canvases;
  }

  Optional<TriggerTarget> remembered(UUID tenantId, String nodeId) {
    return Optional.ofNullable(remembered.getIfPresent(new Key(tenantId, nodeId)));
  }

  /** The stored target, remembered for the next call; empty (and forgotten) when there is none. */
  Optional<TriggerTarget> lookUp(UUID tenantId, String nodeId) {
    Key key = new Key(tenantId, nodeId);
    Optional<TriggerTarget> stored = canvases.triggerTarget(tenantId, nodeId);
    stored.ifPresentOrElse(target -> remembered.put(key, target), () -> remembered.invalidate(key));
    return stored;
  }
}
