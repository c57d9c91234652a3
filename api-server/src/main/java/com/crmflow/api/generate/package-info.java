/** POST /generate: a flow built from a plain-language prompt by a deterministic, offline parser. */
package com.crmflow.api.generate;
