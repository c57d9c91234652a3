package com.crmflow.api.web;

import com.crmflow.api.run.RunStarter;

/**
 * What ApiServerFloorsTest's floors forbid, for that test to show that they do: a class of the
 * foundation (web) that uses one of the runs' floor. Only that test reads it.
 */
public class ImportsUpForTheFloorsTest {

  RunStarter starter;
}
