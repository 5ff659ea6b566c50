package io.looplab.cli.engine;

import com.sun.source.util.TaskEvent;
import com.sun.source.util.TaskListener;

import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.TypeParameterElement;
import javax.lang.model.element.VariableElement;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Everything about a compilation's classes that code compiled against them can depend on, as javac saw it: each
 * class's kind, modifiers, type parameters and supertypes, and each member's kind, modifiers, name, type, thrown
 * types and constant value, nested classes included; never a method's body. Two compilations with the same
 * fingerprint give code compiled against them the same class files, so the graded tests compiled against the one
 * serve the other (see {@link CompiledTests}). Private members count too: it errs on the side of compiling again.
 */
final class ApiFingerprint implements TaskListener {

  private final Map<String, String> types = new TreeMap<>();

  @Override
  public void finished(TaskEvent event) {
    if (event.getKind() == TaskEvent.Kind.ANALYZE && event.getTypeElement() != null) {
      StringBuilder out = new StringBuilder();
      describe(event.getTypeElement(), out);
      types.put(event.getTypeElement().getQualifiedName().toString(), out.toString());
    }
  }

  /** The SHA-256 of every class's description, in name order. */
  String digest() {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      types.values().forEach(d -> sha.update(d.getBytes(StandardCharsets.UTF_8)));
      return HexFormat.of().formatHex(sha.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  private static void describe(TypeElement type, StringBuilder out) {
    out.append(type.getKind()).append(' ').append(type.getModifiers()).append(' ').append(type.getQualifiedName());
    typeParameters(type.getTypeParameters(), out);
    out.append(" extends ").append(type.getSuperclass()).append(" implements ").append(type.getInterfaces())
        .append(" permits ").append(type.getPermittedSubclasses()).append(' ').append(type.getAnnotationMirrors())
        .append('\n');
    for (Element member : type.getEnclosedElements()) {
      if (member instanceof TypeElement nested) {
        describe(nested, out);
        continue;
      }
      out.append("  ").append(member.getKind()).append(' ').append(member.getModifiers()).append(' ')
          .append(member.getSimpleName()).append(' ').append(member.asType()).append(' ')
          .append(member.getAnnotationMirrors());
      if (member instanceof ExecutableElement method) {
        typeParameters(method.getTypeParameters(), out);
        out.append(" throws ").append(method.getThrownTypes()).append(" varargs ").append(method.isVarArgs())
            .append(" default ").append(method.getDefaultValue());
      }
      if (member instanceof VariableElement field) {
        Object constant = field.getConstantValue();
        out.append(" = ").append(constant == null ? "" : constant.getClass().getName() + ":" + constant);
      }
      out.append('\n');
    }
  }

  private static void typeParameters(List<? extends TypeParameterElement> parameters, StringBuilder out) {
    for (TypeParameterElement p : parameters) {
      out.append(" <").append(p.getSimpleName()).append(" extends ").append(p.getBounds()).append('>');
    }
  }
}
