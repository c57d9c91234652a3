package com.crmflow.api.nodetype;

import com.crmflow.shared.secret.SecretCipher;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * {@link PartnerNoticeNode} packaged on its own, as {@link AuditStampAutoConfiguration} is: the
 * type and the implementation of the activity it declares, so that the process that polls the
 * activity's queue (the stand-alone worker) registers it there.
 */
@AutoConfiguration
public class PartnerNoticeAutoConfiguration {

  @Bean
  PartnerNoticeNode partnerNoticeNode() {
    return new PartnerNoticeNode();
  }

  @Bean
  PartnerNoticeActivitiesImpl partnerNoticeActivities(SecretCipher cipher) {
    return new PartnerNoticeActivitiesImpl(cipher);
  }
}
