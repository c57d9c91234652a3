/**
 * Secrets at rest as a whole: re-sealing every stored secret with the current key after a key
 * rotation (canvas node secrets, chat integration tokens, webhook signing secrets).
 */
package com.crmflow.api.secret;
