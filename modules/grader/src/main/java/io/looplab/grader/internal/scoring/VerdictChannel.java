package io.looplab.grader.internal.scoring;

import io.vertx.core.json.JsonObject;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * The grading JVM's end of the verdict's way to the kit (see {@link VerdictFormat}): the scorer hands it each report
 * it would otherwise write to a file, and it writes the report as a signed record on the JVM's standard output.
 *
 * <p>It holds the one thing the graded code must never reach, the key, in the one static of the scorer: JUnit creates
 * the {@link ScoringListener} itself (through ServiceLoader), so the runner, which reads the key, cannot hand it over
 * any other way. Graded code could reach a private static only through reflection, method handles or
 * {@code Unsafe}, which the kit refuses in graded code before it runs (see docs/threat-model.md).
 */
public final class VerdictChannel {

  private static volatile VerdictChannel open;

  private final byte[] key;
  private final OutputStream out;
  private long written;

  private VerdictChannel(byte[] key, OutputStream out) {
    this.key = key.clone();
    this.out = out;
  }

  /**
   * Opens the channel with the kit's key, once, before any test runs. Its stream is a descriptor of its own on the
   * pipe behind standard output where the system offers one ({@code /proc/self/fd/1}), so that code which closes
   * {@code System.out} does not close the verdict's way out with it.
   */
  public static void open(byte[] key) {
    if (open != null) {
      throw new IllegalStateException("the verdict channel is open already");
    }
    open = new VerdictChannel(key, ownStandardOutput());
  }

  /** Whether the kit gave a key: then reports go here, and never to a file. */
  static boolean isOpen() {
    return open != null;
  }

  /** Sends the report so far of the job whose report would have gone to {@code job}. */
  static void send(Path job, InFlightReport report) {
    VerdictChannel channel = open;
    if (channel != null) {
      channel.write(payload(job, report));
    }
  }

  /**
   * Sends, for the job whose report goes to {@code job}, where its tests' thread is when the kit's time limit struck:
   * {@code where} in words, and whether that is inside the learner's code.
   */
  public static void sendWhere(Path job, String where, boolean inLearnersCode) {
    VerdictChannel channel = open;
    if (channel != null) {
      channel.write(new JsonObject().put("job", job.toString())
          .put("where", new JsonObject().put("text", where).put("inLearnersCode", inLearnersCode)).encode());
    }
  }

  /**
   * Sends, after a serving JVM's job (see ServingLoop), the word that ends it: "next" or "end". It travels behind
   * the job's last report on the same pipe, so the kit that reads it has read that report already.
   */
  public static void sendDone(Path job, String word) {
    VerdictChannel channel = open;
    if (channel != null) {
      channel.write(new JsonObject().put("job", job.toString()).put("done", word).encode());
    }
  }

  private synchronized void write(String payload) {
    try {
      for (String line : lines(key, ++written, payload)) {
        out.write(line.getBytes(StandardCharsets.US_ASCII));     // one write: never mixed with other output
      }
      out.flush();
    } catch (IOException e) {
      // The kit is gone, or its pipe was closed: it then has no verdict, and says so.
    }
  }

  /** Record {@code number} with text {@code payload}, as the lines that carry it, each with its newlines. */
  static List<String> lines(byte[] key, long number, String payload) {
    String encoded = Base64.getEncoder().encodeToString(payload.getBytes(StandardCharsets.UTF_8));
    int parts = Math.max(1, (encoded.length() + VerdictFormat.CHUNK_CHARS - 1) / VerdictFormat.CHUNK_CHARS);
    String signature = VerdictFormat.signature(key, number, payload);
    List<String> lines = new ArrayList<>();
    for (int part = 1; part <= parts; part++) {
      String chunk = encoded.substring((part - 1) * VerdictFormat.CHUNK_CHARS,
          Math.min(encoded.length(), part * VerdictFormat.CHUNK_CHARS));
      lines.add("\n" + VerdictFormat.MARK + " " + number + " " + part + " " + parts + " " + chunk
          + (part == parts ? " " + signature : "") + "\n");
    }
    return lines;
  }

  /** What {@link #send} writes for {@code job}'s {@code report}: for the grader's own tests of the format. */
  static String payload(Path job, InFlightReport report) {
    return new JsonObject().put("job", job.toString()).put("report", report.toJson()).encode();
  }

  private static OutputStream ownStandardOutput() {
    Path own = Path.of("/proc/self/fd/1");
    if (Files.exists(own)) {
      try {
        return new FileOutputStream(own.toFile(), true);
      } catch (IOException e) {
        // fall through to the shared descriptor
      }
    }
    return new FileOutputStream(FileDescriptor.out);
  }
}
