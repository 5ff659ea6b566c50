package io.looplab.session;

import java.security.SecureRandom;
import java.util.HexFormat;

/** Session codes a learner types, and the 128-bit secrets (instructor key, learner tokens) nobody types. */
final class Secrets {
  /** Capital letters without the look-alikes I, L, O (read as 1 and 0 on a projector). */
  private static final String CODE_LETTERS = "ABCDEFGHJKMNPQRSTUVWXYZ";

  private final SecureRandom random = new SecureRandom();

  String sessionCode() {
    StringBuilder code = new StringBuilder();
    for (int i = 0; i < 6; i++) {
      code.append(CODE_LETTERS.charAt(random.nextInt(CODE_LETTERS.length())));
    }
    return code.toString();
  }

  /** 128 random bits in hex; nextBytes, never generateSeed, which can wait for entropy. */
  String secret() {
    byte[] bytes = new byte[16];
    random.nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }
}
