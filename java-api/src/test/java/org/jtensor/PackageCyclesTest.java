package org.jtensor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;

/**
 * The packages are layers: in the graph of the compiled classes' packages (an edge where a class
 * of one package names a class of another, read from its constant pool) no package reaches
 * itself again, once three kinds of edge are left out, each for its reason:
 *
 * <ul>
 *   <li>edges into the API's value types ({@link #VALUE_TYPES}), which every layer may name;
 *   <li>edges from the implementation into the tensor handle types ({@link #HANDLE_TYPES}):
 *       org.jtensor.ops composes Tensor ops (derivative formulas, einsum, sampling, the graph's
 *       nodes), as PyTorch's composite ops are written against at::Tensor; autograd's public
 *       signatures (Autograd.backward, Node.apply) take Tensors while Tensor's (gradFn(),
 *       registerHook) name autograd's types; and org.jtensor.access names the types whose
 *       members it hands out;
 *   <li>edges from the API's packages into org.jtensor.access, where their classes register the
 *       accessors through which the implementation reaches their package-private members (Note
 *       [Shared secrets]).
 * </ul>
 *
 * Anything else that closes a cycle (core or dispatch naming an op implementation, cuda naming
 * ops, ops naming nn) fails here, naming one class on each edge of the cycle.
 */
class PackageCyclesTest {
  /** The API's value types: DType, Device, the enums beside them, and the API's exception types. */
  static final Set<String> VALUE_TYPES = Set.of("org.jtensor.DType", "org.jtensor.Device", "org.jtensor.memory.LeakLevel",
      "org.jtensor.memory.TensorOutOfMemoryException", "org.jtensor.io.TensorFormatException",
      "org.jtensor.data.DataLoaderException");
  /** The tensor handle types, and the packages that may name them from below the API. */
  static final Set<String> HANDLE_TYPES = Set.of("org.jtensor.Tensor", "org.jtensor.TensorScope", "org.jtensor.Generator",
      "org.jtensor.Index", "org.jtensor.ValuesAndIndices");
  static final Set<String> HANDLE_USERS = Set.of("org.jtensor.ops", "org.jtensor.autograd", "org.jtensor.access");
  /** Where accessors are registered (Note [Shared secrets]), and the packages that register there. */
  static final String ACCESS = "org.jtensor.access";
  static final Set<String> REGISTRANTS = Set.of("org.jtensor", "org.jtensor.cuda");

  @Test
  void compiledPackagesHaveNoCycle() throws IOException, URISyntaxException {
    Map<String, Set<String>> refs = classReferences(classesRoot());
    assertTrue(refs.size() > 200 && refs.containsKey("org.jtensor.Tensor"), "read the library's classes: " + refs.size());
    assertEquals(List.of(), cycles(refs), "package cycles (each edge with one class that makes it)");
  }

  /** The concessions are still needed: a handle type or a package that no longer makes its edge comes off the lists. */
  @Test
  void everyConcessionIsUsed() throws IOException, URISyntaxException {
    Map<String, Set<String>> refs = classReferences(classesRoot());
    Set<String> named = new TreeSet<>(), handleUsers = new TreeSet<>(), registrants = new TreeSet<>();
    refs.forEach((from, tos) -> {
      for (String to : tos) {
        if (packageOf(from).equals(packageOf(to))) continue;
        named.add(to);
        if (HANDLE_USERS.contains(packageOf(from)) && HANDLE_TYPES.contains(to)) handleUsers.add(packageOf(from));
        if (REGISTRANTS.contains(packageOf(from)) && packageOf(to).equals(ACCESS)) registrants.add(packageOf(from));
      }
    });
    for (String t : HANDLE_TYPES) assertTrue(named.contains(t), t + " is named from another package");
    assertEquals(new TreeSet<>(HANDLE_USERS), handleUsers, "packages that name the handle types");
    assertEquals(new TreeSet<>(REGISTRANTS), registrants, "packages that register an accessor");
  }

  /** The test of the test: a cycle in a made-up graph is found, with the classes that make it. */
  @Test
  void findsACycleThroughAnyNumberOfPackages() {
    Map<String, Set<String>> refs = new TreeMap<>();
    refs.put("a.A", Set.of("b.B"));
    refs.put("b.B", Set.of("c.C", "java.util.List"));
    refs.put("c.C", Set.of("a.Other"));
    refs.put("a.Other", Set.of());
    refs.put("d.D", Set.of("a.A"));  // into the cycle, not on it
    assertEquals(List.of("a -> b (a.A names b.B); b -> c (b.B names c.C); c -> a (c.C names a.Other)"), cycles(refs));
  }

  /** The exceptions, on the real graph with one edge planted: core naming an op implementation is a cycle. */
  @Test
  void findsAPlantedBackEdgeInTheLibrary() throws IOException, URISyntaxException {
    Map<String, Set<String>> refs = classReferences(classesRoot());
    refs.get("org.jtensor.core.TensorImpl").add("org.jtensor.ops.Ops");
    List<String> found = cycles(refs);
    assertEquals(1, found.size(), found.toString());
    assertTrue(found.get(0).contains("org.jtensor.core -> org.jtensor.ops (org.jtensor.core.TensorImpl names org.jtensor.ops.Ops)"),
        found.get(0));
  }

  /** Only the listed exceptions: a value type's edge is left out, a handle type's only from the listed packages. */
  @Test
  void leavesOutOnlyTheListedEdges() {
    Map<String, Set<String>> refs = new TreeMap<>();
    refs.put("org.jtensor.Tensor", Set.of("org.jtensor.core.TensorImpl", "org.jtensor.ops.Ops"));
    refs.put("org.jtensor.core.TensorImpl", Set.of("org.jtensor.DType", "org.jtensor.memory.LeakLevel"));
    refs.put("org.jtensor.ops.Ops", Set.of("org.jtensor.Tensor"));
    assertEquals(List.of(), cycles(refs));
    refs.put("org.jtensor.core.TensorImpl", Set.of("org.jtensor.DType", "org.jtensor.Tensor"));
    assertEquals(List.of("org.jtensor -> org.jtensor.core (org.jtensor.Tensor names org.jtensor.core.TensorImpl); "
        + "org.jtensor.core -> org.jtensor (org.jtensor.core.TensorImpl names org.jtensor.Tensor)"), cycles(refs));
  }

  /** What a class names reaches the graph wherever the class file keeps it: code, descriptors, generic signatures. */
  @Test
  void readsTheNamesOfAClassFile() throws IOException {
    Set<String> named;
    try (InputStream in = Sample.class.getResourceAsStream("PackageCyclesTest$Sample.class")) {
      named = namedClasses(in.readAllBytes());
    }
    assertTrue(named.contains("java.util.zip.CRC32"), "a class its code makes: " + named);
    assertTrue(named.contains("java.util.concurrent.atomic.LongAdder"), "a field's type: " + named);
    assertTrue(named.contains("java.time.Duration"), "a type argument of a method's signature: " + named);
    assertTrue(!named.contains("java.lang.Thread"), "a string is not a reference: " + named);
  }

  @SuppressWarnings("unused")  // read as a class file
  private static final class Sample {
    LongAdder adder;

    long crc() {
      CRC32 c = new CRC32();
      return c.getValue() + "Ljava/lang/Thread;".length();
    }

    List<java.time.Duration> durations() {
      return null;
    }
  }

  // ---------------------------------------------------------------- the graph

  /** The package cycles, each as its edges with one class that makes each, once the listed exceptions are left out. */
  static List<String> cycles(Map<String, Set<String>> refs) {
    Map<String, Map<String, String>> graph = new TreeMap<>();  // package -> package -> "A names B"
    for (String c : refs.keySet()) graph.put(packageOf(c), new TreeMap<>());
    refs.forEach((from, tos) -> {
      String pf = packageOf(from);
      for (String to : new TreeSet<>(tos)) {
        String pt = packageOf(to);
        if (pt.equals(pf) || !graph.containsKey(pt) || leftOut(pf, to)) continue;  // the JDK, bindings: not nodes
        graph.get(pf).putIfAbsent(pt, from + " names " + to);
      }
    });
    List<String> out = new ArrayList<>();
    for (List<String> scc : stronglyConnected(graph)) {
      if (scc.size() < 2) continue;
      out.add(String.join("; ", cycleThrough(graph, new TreeSet<>(scc))));
    }
    return out;
  }

  private static boolean leftOut(String fromPackage, String to) {
    return VALUE_TYPES.contains(to) || HANDLE_USERS.contains(fromPackage) && HANDLE_TYPES.contains(to)
        || REGISTRANTS.contains(fromPackage) && packageOf(to).equals(ACCESS);
  }

  /** Tarjan's strongly connected components. */
  private static List<List<String>> stronglyConnected(Map<String, Map<String, String>> graph) {
    Map<String, Integer> index = new HashMap<>(), low = new HashMap<>();
    Deque<String> stack = new ArrayDeque<>();
    Set<String> onStack = new HashSet<>();
    List<List<String>> out = new ArrayList<>();
    for (String v : graph.keySet()) if (!index.containsKey(v)) connect(v, graph, index, low, stack, onStack, out);
    return out;
  }

  private static void connect(String v, Map<String, Map<String, String>> graph, Map<String, Integer> index,
                              Map<String, Integer> low, Deque<String> stack, Set<String> onStack, List<List<String>> out) {
    index.put(v, index.size());
    low.put(v, index.get(v));
    stack.push(v);
    onStack.add(v);
    for (String w : graph.getOrDefault(v, Map.of()).keySet()) {
      if (!index.containsKey(w)) {
        connect(w, graph, index, low, stack, onStack, out);
        low.put(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.contains(w)) {
        low.put(v, Math.min(low.get(v), index.get(w)));
      }
    }
    if (low.get(v).equals(index.get(v))) {
      List<String> scc = new ArrayList<>();
      String w;
      do {
        w = stack.pop();
        onStack.remove(w);
        scc.add(w);
      } while (!w.equals(v));
      out.add(scc);
    }
  }

  /** One cycle within a strongly connected set, from its first package: the shortest way back, by breadth-first search. */
  private static List<String> cycleThrough(Map<String, Map<String, String>> graph, TreeSet<String> scc) {
    String start = scc.first();
    Map<String, String> parent = new HashMap<>();
    Deque<String> queue = new ArrayDeque<>(List.of(start));
    String last = null;
    while (!queue.isEmpty() && last == null) {
      String v = queue.poll();
      for (String w : graph.get(v).keySet()) {
        if (!scc.contains(w)) continue;
        if (w.equals(start)) {
          last = v;
          break;
        }
        if (parent.putIfAbsent(w, v) == null) queue.add(w);
      }
    }
    List<String> path = new ArrayList<>();
    for (String v = last; v != null; v = parent.get(v)) path.add(0, v);
    List<String> edges = new ArrayList<>();
    for (int i = 0; i < path.size(); i++) {
      String a = path.get(i), b = i + 1 < path.size() ? path.get(i + 1) : start;
      edges.add(a + " -> " + b + " (" + graph.get(a).get(b) + ")");
    }
    return edges;
  }

  private static String packageOf(String className) {
    int dot = className.lastIndexOf('.');
    return dot < 0 ? "" : className.substring(0, dot);
  }

  // ---------------------------------------------------------------- class files

  /** Each top-level class under root (nested classes folded into theirs) and the classes it names. */
  static Map<String, Set<String>> classReferences(Path root) throws IOException {
    Map<String, Set<String>> refs = new TreeMap<>();
    List<Path> files;
    try (Stream<Path> s = Files.walk(root)) {
      files = s.filter(p -> p.toString().endsWith(".class") && !p.getFileName().toString().equals("module-info.class")).toList();
    }
    for (Path f : files) {
      String name = topLevel(root.relativize(f).toString().replace('\\', '/').replaceAll("\\.class$", "").replace('/', '.'));
      Set<String> named = refs.computeIfAbsent(name, k -> new TreeSet<>());
      for (String n : namedClasses(Files.readAllBytes(f))) if (!n.equals(name)) named.add(n);
    }
    return refs;
  }

  private static final Pattern DESCRIPTOR_CLASS = Pattern.compile("L([\\w/$]+)[;<]");

  /**
   * The classes a class file names: its constant pool's class entries, and every class in a
   * descriptor or generic signature among its UTF-8 entries (field and method types, type
   * arguments, annotations), but not in its string literals.
   */
  static Set<String> namedClasses(byte[] classFile) throws IOException {
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(classFile));
    if (in.readInt() != 0xCAFEBABE) throw new IOException("not a class file");
    in.readUnsignedShort();  // minor and major version
    in.readUnsignedShort();
    int count = in.readUnsignedShort();
    String[] utf8 = new String[count];
    Set<Integer> classNames = new HashSet<>(), strings = new HashSet<>();
    for (int i = 1; i < count; i++) {
      int tag = in.readUnsignedByte();
      switch (tag) {
        case 1 -> utf8[i] = in.readUTF();
        case 7 -> classNames.add(in.readUnsignedShort());
        case 8 -> strings.add(in.readUnsignedShort());
        case 16, 19, 20 -> in.readUnsignedShort();  // MethodType (its descriptor is a UTF-8 entry too), Module, Package
        case 15 -> in.skipNBytes(3);  // MethodHandle
        case 3, 4, 9, 10, 11, 12, 17, 18 -> in.skipNBytes(4);  // int, float, member refs, NameAndType, (invoke)dynamic
        case 5, 6 -> {  // long, double: two entries
          in.skipNBytes(8);
          i++;
        }
        default -> throw new IOException("constant pool tag " + tag + " at entry " + i);
      }
    }
    Set<String> out = new TreeSet<>();
    for (int i = 1; i < count; i++) {
      if (utf8[i] == null || strings.contains(i)) continue;
      String s = utf8[i];
      if (classNames.contains(i) && !s.startsWith("[")) out.add(topLevel(s.replace('/', '.')));
      Matcher m = DESCRIPTOR_CLASS.matcher(s);
      while (m.find()) out.add(topLevel(m.group(1).replace('/', '.')));
    }
    return out;
  }

  private static String topLevel(String className) {
    int dollar = className.indexOf('$', className.lastIndexOf('.') + 1);
    return dollar < 0 ? className : className.substring(0, dollar);
  }

  /** The library's compiled classes (a folder in this build). */
  private static Path classesRoot() throws URISyntaxException {
    return Path.of(Tensor.class.getProtectionDomain().getCodeSource().getLocation().toURI());
  }
}
