package io.looplab.grader.internal.scoring;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Optional;

/**
 * How a grading JVM's verdict travels to the kit that started it, defined once for both ends ({@link VerdictChannel}
 * writes, {@link VerdictStream} reads). The graded code runs in the same JVM as the scorer and may write anything
 * anywhere it can reach, its standard output and the grading's work folder included; so the verdict is not a file,
 * and each record on standard output is signed with a key that only the kit and the scorer know.
 *
 * <ul>
 *   <li>The kit draws a fresh {@link #newKey() key} for every JVM and sends it as the first line of the JVM's standard
 *       input, {@code key <hex>}. The runner reads it before any graded class is loaded, and the tests then get an
 *       empty standard input: nothing the code can read holds the key afterwards.</li>
 *   <li>A record is a JSON object (the job it is about, and the report so far), numbered 1, 2, 3... in the order
 *       written, and signed with HMAC-SHA256 over its number and its text.</li>
 *   <li>It travels base64-encoded, in lines of {@value #CHUNK_CHARS} characters at most, each written with one
 *       {@code write} and so never mixed with other output (a pipe keeps writes up to 4,096 bytes whole), each
 *       starting a line of its own: {@code \n@@looplab-verdict <number> <part> <parts> <base64> [<signature>]\n},
 *       the signature on the last part.</li>
 * </ul>
 * A line that starts with the mark and is not a part of the next record, whole and correctly signed, makes the whole
 * grading an error: the kit cannot tell what the grader said, so it gives no points and no lost points.
 */
public final class VerdictFormat {

  /** What starts every line of a record. */
  public static final String MARK = "@@looplab-verdict";
  /** The base64 characters in one line: with the rest of the line, well under the 4,096 bytes a pipe writes whole. */
  static final int CHUNK_CHARS = 3_000;
  /** The most a record may hold, decoded: a report is a few tens of KiB; anything larger is not the grader's. */
  static final int MAX_RECORD_BYTES = 4 << 20;
  private static final String KEY_PREFIX = "key ";
  private static final int KEY_BYTES = 32;
  private static final String ALGORITHM = "HmacSHA256";

  private VerdictFormat() {
  }

  /** A fresh key for one grading JVM. */
  public static byte[] newKey() {
    byte[] key = new byte[KEY_BYTES];
    new SecureRandom().nextBytes(key);
    return key;
  }

  /** The first line the kit writes on the JVM's standard input. */
  public static String keyLine(byte[] key) {
    return KEY_PREFIX + HexFormat.of().formatHex(key);
  }

  /** The key on a line written by {@link #keyLine}, or empty for any other line. */
  public static Optional<byte[]> parseKeyLine(String line) {
    if (line == null || !line.startsWith(KEY_PREFIX)) {
      return Optional.empty();
    }
    try {
      byte[] key = HexFormat.of().parseHex(line.substring(KEY_PREFIX.length()).strip());
      return key.length == KEY_BYTES ? Optional.of(key) : Optional.empty();
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  /** Whether a line of output claims to be part of a record (and so must be one). */
  public static boolean isRecordLine(String line) {
    return line.startsWith(MARK);
  }

  /** The signature of record {@code number} with text {@code payload}, in hex. */
  static String signature(byte[] key, long number, String payload) {
    try {
      Mac mac = Mac.getInstance(ALGORITHM);
      mac.init(new SecretKeySpec(key, ALGORITHM));
      mac.update((number + "\n").getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(mac.doFinal(payload.getBytes(StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("every JDK has " + ALGORITHM, e);
    }
  }
}
