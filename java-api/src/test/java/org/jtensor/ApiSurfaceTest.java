package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The public API is the exported packages, and nothing public in them names an internal type:
 * module-info exports exactly the API packages (org.jtensor, cuda, memory, autograd, nn, optim, io, data), and every public or protected
 * member of every public type there takes, returns, throws and extends only types of those
 * packages or of the JDK. A public method that handed out a TensorImpl, a plan or a backend fails here.
 */
class ApiSurfaceTest {
  private static final Set<String> API = Set.of("org.jtensor", "org.jtensor.cuda", "org.jtensor.memory", "org.jtensor.autograd", "org.jtensor.nn", "org.jtensor.optim", "org.jtensor.io", "org.jtensor.data");

  @Test
  void moduleExportsOnlyTheApiPackages() throws IOException, URISyntaxException {
    try (InputStream in = Files.newInputStream(classesRoot().resolve("module-info.class"))) {
      ModuleDescriptor d = ModuleDescriptor.read(in);
      assertEquals("org.jtensor", d.name());
      Set<String> exported = d.exports().stream().map(ModuleDescriptor.Exports::source).collect(Collectors.toSet());
      assertEquals(API, exported);
      assertTrue(d.opens().isEmpty(), "no package is opened for reflection: " + d.opens());
    }
  }

  @Test
  void publicMembersNameOnlyApiAndJdkTypes() throws Exception {
    List<String> leaks = new ArrayList<>();
    List<Class<?>> types = apiTypes();
    assertTrue(types.size() > 15, "found the API's classes: " + types);
    for (Class<?> c : types) {
      check(leaks, c, "extends", c.getGenericSuperclass());
      for (Type i : c.getGenericInterfaces()) check(leaks, c, "implements", i);
      for (Field f : c.getDeclaredFields()) if (visible(f)) check(leaks, c, f.getName(), f.getGenericType());
      for (Constructor<?> k : c.getDeclaredConstructors()) if (visible(k)) checkExecutable(leaks, c, k);
      for (Method m : c.getDeclaredMethods()) {
        if (!visible(m) || m.isSynthetic()) continue;
        check(leaks, c, m.getName() + "() returns", m.getGenericReturnType());
        checkExecutable(leaks, c, m);
      }
    }
    assertEquals(List.of(), leaks, "public API members that name internal types");
  }

  private static boolean visible(Member m) {
    return Modifier.isPublic(m.getModifiers()) || Modifier.isProtected(m.getModifiers());
  }

  private static void checkExecutable(List<String> leaks, Class<?> owner, Executable e) {
    for (Type p : e.getGenericParameterTypes()) check(leaks, owner, e.getName() + "() takes", p);
    for (Type x : e.getGenericExceptionTypes()) check(leaks, owner, e.getName() + "() throws", x);
  }

  private static void check(List<String> leaks, Class<?> owner, String where, Type t) {
    if (t == null) return;
    if (t instanceof Class<?> c) {
      while (c.isArray()) c = c.getComponentType();
      if (c.isPrimitive() || c.getPackageName().startsWith("java.") || API.contains(c.getPackageName())) return;
      leaks.add(owner.getName() + "." + where + " " + c.getName());
    } else if (t instanceof ParameterizedType p) {
      check(leaks, owner, where, p.getRawType());
      for (Type a : p.getActualTypeArguments()) check(leaks, owner, where, a);
    } else if (t instanceof GenericArrayType g) {
      check(leaks, owner, where, g.getGenericComponentType());
    } else if (t instanceof WildcardType w) {
      for (Type b : w.getUpperBounds()) check(leaks, owner, where, b);
      for (Type b : w.getLowerBounds()) check(leaks, owner, where, b);
    } else if (t instanceof TypeVariable<?> v) {
      for (Type b : v.getBounds()) check(leaks, owner, where, b);
    }
  }

  /** Every public class (nested ones included) compiled into the exported packages. */
  private static List<Class<?>> apiTypes() throws IOException, URISyntaxException, ClassNotFoundException {
    Path root = classesRoot();
    Set<String> names = new TreeSet<>();
    for (String pkg : API) {
      Path dir = root.resolve(pkg.replace('.', '/'));
      try (Stream<Path> files = Files.list(dir)) {
        files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".class"))
            .forEach(n -> names.add(pkg + "." + n.substring(0, n.length() - ".class".length())));
      }
    }
    List<Class<?>> out = new ArrayList<>();
    for (String n : names) {
      Class<?> c = Class.forName(n, false, Tensor.class.getClassLoader());
      if (isPublicAllTheWay(c)) out.add(c);
    }
    return out;
  }

  /** The library's compiled classes (a folder in this build). */
  private static Path classesRoot() throws URISyntaxException {
    return Path.of(Tensor.class.getProtectionDomain().getCodeSource().getLocation().toURI());
  }

  private static boolean isPublicAllTheWay(Class<?> c) {
    for (Class<?> k = c; k != null; k = k.getEnclosingClass()) {
      if (!Modifier.isPublic(k.getModifiers()) || k.isAnonymousClass()) return false;
    }
    return true;
  }
}
