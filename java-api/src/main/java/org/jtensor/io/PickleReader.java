package org.jtensor.io;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A restricted unpickler: it runs Python's pickle machine (protocols 0 to 5) over data, but builds
 * only plain values (None, bool, int, float, str, bytes, tuple, list, dict, set) itself and asks a
 * {@link Resolver} for everything else: a global is a name the resolver may refuse, and calling
 * one (REDUCE, NEWOBJ) or restoring its state (BUILD) is the resolver's decision. Nothing named in
 * the file is ever looked up or run. Python values arrive as null, Boolean, Long (BigInteger
 * beyond 64 bits), Double, String, byte[], unmodifiable List (tuple), ArrayList (list),
 * LinkedHashMap (dict) and Set.
 */
final class PickleReader {
  /** What the machine may not decide by itself. Each method refuses by throwing. */
  interface Resolver {
    Object global(String module, String name) throws TensorFormatException;

    Object call(Object callable, List<Object> args) throws TensorFormatException;

    Object persistentLoad(Object pid) throws IOException;  // may read the storage it names

    void build(Object target, Object state) throws TensorFormatException;
  }

  /** Deepest nesting of containers accepted (Python's own recursion limit is about this). */
  static final int MAX_DEPTH = 1000;

  private final PickleInput in;
  private final Path file;
  private final Resolver resolver;
  private final ArrayList<Object> stack = new ArrayList<>();
  private final ArrayList<Integer> marks = new ArrayList<>();
  private final Map<Long, Object> memo = new HashMap<>();
  private PickleReader(byte[] data, Path file, Resolver resolver) {
    this.in = new PickleInput(data, file);
    this.file = file;
    this.resolver = resolver;
  }

  /** Runs the pickle in data (from file, for messages) to its STOP and returns the value it built. */
  static Object load(byte[] data, Path file, Resolver resolver) throws IOException {
    PickleReader r = new PickleReader(data, file, resolver);
    Object result = r.run();
    Nesting.check(result, file);
    return result;
  }

  TensorFormatException bad(String problem) {
    return in.bad(problem);
  }

  private Object run() throws IOException {
    while (true) {
      int op = in.startOp();
      switch (op) {
        case 0x80: { int p = in.u8(); if (p > 5) throw bad("pickle protocol " + p + " is not supported (0 to 5 are)"); break; }
        case 0x95: in.skip(8); break;  // FRAME: a hint for buffered readers
        case '.': {
          Object v = pop();
          if (!stack.isEmpty() || !marks.isEmpty()) throw bad("STOP with " + stack.size() + " values left on the stack");
          return v;
        }
        case '(': marks.add(stack.size()); break;
        case '0': pop(); break;
        case '1': popMark(); break;
        case '2': push(peek()); break;
        case 'N': push(null); break;
        case 0x88: push(Boolean.TRUE); break;
        case 0x89: push(Boolean.FALSE); break;
        case 'K': push((long) in.u8()); break;
        case 'M': push((long) (in.u8() | in.u8() << 8)); break;
        case 'J': push((long) in.i32()); break;
        case 0x8a: push(in.longBytes(in.u8())); break;
        case 0x8b: push(in.longBytes(in.length(in.i32()))); break;
        case 'G': push(in.float64()); break;
        case 'I': push(in.textInt(in.line())); break;
        case 'L': push(in.textLong(in.line())); break;
        case 'F': push(in.textFloat(in.line())); break;
        case 'X': push(in.utf8(in.length(in.i32()))); break;
        case 0x8c: push(in.utf8(in.u8())); break;
        case 0x8d: push(in.utf8(in.length(in.i64()))); break;
        case 'V': push(in.rawUnicodeEscape(in.line(StandardCharsets.ISO_8859_1))); break;
        case 'U': push(in.latin1(in.u8())); break;   // protocol 0-2 str of Python 2, decoded as torch.load does
        case 'T': push(in.latin1(in.length(in.i32()))); break;
        case 'C': push(in.bytes(in.u8())); break;
        case 'B': push(in.bytes(in.length(in.i32()))); break;
        case 0x8e: push(in.bytes(in.length(in.i64()))); break;
        case 0x96: push(in.bytes(in.length(in.i64()))); break;  // BYTEARRAY8
        case ')': push(tuple(List.of())); break;
        case 0x85: push(tuple(popN(1))); break;
        case 0x86: push(tuple(popN(2))); break;
        case 0x87: push(tuple(popN(3))); break;
        case 't': push(tuple(popMark())); break;
        case ']': push(new ArrayList<>()); break;
        case 'l': push(new ArrayList<>(popMark())); break;
        case '}': push(new LinkedHashMap<>()); break;
        case 'd': { Map<Object, Object> m = new LinkedHashMap<>(); putAll(m, popMark()); push(m); break; }
        case 0x8f: push(new LinkedHashSet<>()); break;
        case 'a': { Object v = pop(); list(peek()).add(v); break; }
        case 'e': { List<Object> items = popMark(); list(peek()).addAll(items); break; }
        case 's': { Object v = pop(), k = pop(); dict(peek()).put(key(k), v); break; }
        case 'u': { List<Object> kv = popMark(); putAll(dict(peek()), kv); break; }
        case 0x90: { List<Object> items = popMark(); Set<Object> s = set(peek()); for (Object o : items) s.add(key(o)); break; }
        case 0x91: { Set<Object> s = new LinkedHashSet<>(); for (Object o : popMark()) s.add(key(o)); push(Collections.unmodifiableSet(s)); break; }
        case 'p': memo.put(in.memoIndex(in.line()), peek()); break;
        case 'q': memo.put((long) in.u8(), peek()); break;
        case 'r': memo.put(in.i32() & 0xffffffffL, peek()); break;
        case 0x94: memo.put((long) memo.size(), peek()); break;
        case 'g': push(memoGet(in.memoIndex(in.line()))); break;
        case 'h': push(memoGet(in.u8())); break;
        case 'j': push(memoGet(in.i32() & 0xffffffffL)); break;
        case 'c': { String module = in.line(); push(global(module, in.line())); break; }
        case 0x93: { Object name = pop(), module = pop(); push(global(str(module), str(name))); break; }
        case 'R': case 0x81: { Object args = pop(), callable = pop(); push(call(callable, tupleArgs(args))); break; }
        case 'b': { Object state = pop(); build(peek(), state); break; }
        case 'Q': push(resolver.persistentLoad(pop())); break;
        case 'P': push(resolver.persistentLoad(in.line())); break;
        default: throw bad(opName(op) + " is not allowed in a weights file");
      }
    }
  }

  private Object global(String module, String name) throws TensorFormatException {
    PickleBuiltins b = PickleBuiltins.of(module, name);
    return b != null ? b : resolver.global(module, name);
  }

  private Object call(Object callable, List<Object> args) throws TensorFormatException {
    if (callable instanceof PickleBuiltins) return ((PickleBuiltins) callable).call(args, this);
    return resolver.call(callable, args);
  }

  private void build(Object target, Object state) throws TensorFormatException {
    // attributes set on an OrderedDict (a state dict's _metadata) are not items of the mapping
    if (target instanceof LinkedHashMap && state instanceof Map) return;
    resolver.build(target, state);
  }

  private static String opName(int op) {
    switch (op) {
      case 'i': return "opcode INST";
      case 'o': return "opcode OBJ";
      case 0x92: return "opcode NEWOBJ_EX";
      case 0x82: case 0x83: case 0x84: return "opcode EXT (extension registry)";
      case 0x97: case 0x98: return "out-of-band buffer opcode";
      default: return String.format("unknown opcode 0x%02x", op);
    }
  }

  private Object memoGet(long i) throws TensorFormatException {
    if (!memo.containsKey(i)) throw bad("memo entry " + i + " was never stored");
    return memo.get(i);
  }

  private void push(Object o) {
    stack.add(o);
  }

  private int floor() {
    return marks.isEmpty() ? 0 : marks.get(marks.size() - 1);
  }

  private Object pop() throws TensorFormatException {
    if (stack.size() <= floor()) throw bad("stack underflow");
    return stack.remove(stack.size() - 1);
  }

  private Object peek() throws TensorFormatException {
    if (stack.size() <= floor()) throw bad("stack underflow");
    return stack.get(stack.size() - 1);
  }

  private List<Object> popN(int n) throws TensorFormatException {
    if (stack.size() - floor() < n) throw bad("stack underflow");
    List<Object> top = stack.subList(stack.size() - n, stack.size());
    List<Object> items = new ArrayList<>(top);
    top.clear();
    return items;
  }

  private List<Object> popMark() throws TensorFormatException {
    if (marks.isEmpty()) throw bad("no MARK to pop to");
    int at = marks.remove(marks.size() - 1);
    List<Object> top = stack.subList(at, stack.size());
    List<Object> items = new ArrayList<>(top);
    top.clear();
    return items;
  }

  private static List<Object> tuple(List<Object> items) {
    return Collections.unmodifiableList(new ArrayList<>(items));
  }

  private List<Object> tupleArgs(Object args) throws TensorFormatException {
    if (!(args instanceof List)) throw bad("call arguments are a " + typeName(args) + ", not a tuple");
    @SuppressWarnings("unchecked") List<Object> l = (List<Object>) args;
    return l;
  }

  @SuppressWarnings("unchecked")
  private List<Object> list(Object o) throws TensorFormatException {
    if (o instanceof ArrayList) return (List<Object>) o;
    throw bad("APPEND to a " + typeName(o) + ", not a list");
  }

  @SuppressWarnings("unchecked")
  private Map<Object, Object> dict(Object o) throws TensorFormatException {
    if (o instanceof LinkedHashMap) return (Map<Object, Object>) o;
    throw bad("SETITEM on a " + typeName(o) + ", not a dict");
  }

  @SuppressWarnings("unchecked")
  private Set<Object> set(Object o) throws TensorFormatException {
    if (o instanceof LinkedHashSet) return (Set<Object>) o;
    throw bad("ADDITEMS on a " + typeName(o) + ", not a set");
  }

  private String str(Object o) throws TensorFormatException {
    if (o instanceof String) return (String) o;
    throw bad("a global's name is a " + typeName(o) + ", not a str");
  }

  private void putAll(Map<Object, Object> m, List<Object> kv) throws TensorFormatException {
    if (kv.size() % 2 != 0) throw bad("odd number of items for a dict");
    for (int i = 0; i < kv.size(); i += 2) {
      m.put(key(kv.get(i)), kv.get(i + 1));
    }
  }

  /** Keys hash in bounded time: scalars, and tuples of scalars. */
  Object key(Object k) throws TensorFormatException {
    if (isScalar(k)) return k;
    if (k instanceof List && !(k instanceof ArrayList)) {
      for (Object e : (List<?>) k) {
        if (!isScalar(e)) throw bad("dict key or set item is a tuple holding a " + typeName(e));
      }
      return k;
    }
    throw bad("dict key or set item of type " + typeName(k) + " is not supported");
  }

  private static boolean isScalar(Object o) {
    return o == null || o instanceof String || o instanceof Long || o instanceof BigInteger || o instanceof Double
        || o instanceof Boolean;
  }

  static String typeName(Object o) {
    if (o == null) return "None";
    if (o instanceof ArrayList) return "list";
    if (o instanceof List) return "tuple";
    if (o instanceof Map) return "dict";
    if (o instanceof Set) return "set";
    if (o instanceof byte[]) return "bytes";
    if (o instanceof String) return "str";
    if (o instanceof Long || o instanceof BigInteger) return "int";
    if (o instanceof Double) return "float";
    if (o instanceof Boolean) return "bool";
    return o.getClass().getSimpleName();
  }
}
