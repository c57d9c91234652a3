/**
 * Contacts: the REST endpoints under /api/v1/contacts (upsert by email, search, custom fields),
 * their rules and their SQL.
 */
package com.crmflow.api.contact;
