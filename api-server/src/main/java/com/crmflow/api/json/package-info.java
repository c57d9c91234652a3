/**
 * JSON in and out of the database and the API: columns read and written as JSON, and the values
 * PostgreSQL cannot store (NUL, numbers beyond a double) refused with a 400.
 */
package com.crmflow.api.json;
