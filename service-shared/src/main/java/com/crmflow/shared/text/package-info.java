/** Text helpers for what comes in from outside and is stored in PostgreSQL. */
package com.crmflow.shared.text;
