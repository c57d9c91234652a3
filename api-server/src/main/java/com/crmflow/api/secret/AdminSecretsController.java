package com.crmflow.api.secret;

import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** Admin API: secrets at rest. Guarded by the admin token. */
@RestController
@RequestMapping("/admin/v1/secrets")
class AdminSecretsController {

  private final StoredSecretsReseal reseal;

  AdminSecretsController(StoredSecretsReseal reseal) {
    this.reseal = reseal;
  }

  /**
   * {@code {key_id, canvas_node_secrets, chat_integration_tokens, webhook_signing_secrets,
   * unreadable, remaining}}: every stored secret sealed with another key, sealed again with the
   * current one; {@code remaining} counts those still left (written while it ran), 0 when the old
   * key may go. 409 when this api-server has no key to seal with.
   */
  @PostMapping("/reseal")
  StoredSecretsReseal.Result reseal() {
    return reseal.resealAll();
  }
}
