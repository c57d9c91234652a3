package com.crmflow.api.support;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;

/** A real SMTP server (GreenMail) on loopback, for the tests of what a flow's emails do. */
public final class GreenMails {

  private GreenMails() {}

  /** Started on a free port of 127.0.0.1. */
  public static GreenMail startedOnAFreePort() {
    ServerSetup setup = new ServerSetup(0, "127.0.0.1", "smtp");
    setup.setServerStartupTimeout(20_000); // a busy CI machine may take longer than the default 2 s
    GreenMail smtp = new GreenMail(setup);
    smtp.start();
    return smtp;
  }
}
