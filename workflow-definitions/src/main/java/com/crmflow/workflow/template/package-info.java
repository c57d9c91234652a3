/**
 * {{source.path}} templates: the one resolver every node type uses, and the references a canvas
 * rule can check.
 */
package com.crmflow.workflow.template;
