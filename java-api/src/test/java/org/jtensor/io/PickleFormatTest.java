package org.jtensor.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The restricted unpickler and the protocol 2 writer on their own, against pickles Python wrote. */
class PickleFormatTest {
  private static final Path FILE = Path.of("test.pkl");

  /** Refuses every global that is not a plain builtin, as a loader for plain values would. */
  private static final PickleReader.Resolver PLAIN = new PickleReader.Resolver() {
    public Object global(String module, String name) throws TensorFormatException {
      throw new TensorFormatException(FILE, "forbidden global " + module + "." + name);
    }

    public Object call(Object callable, List<Object> args) throws TensorFormatException {
      throw new TensorFormatException(FILE, "forbidden call");
    }

    public Object persistentLoad(Object pid) {
      return List.of("loaded", pid);
    }

    public void build(Object target, Object state) throws TensorFormatException {
      throw new TensorFormatException(FILE, "forbidden build");
    }
  };

  private static Object load(String hex) throws IOException {
    return PickleReader.load(HexFormat.of().parseHex(hex), FILE, PLAIN);
  }

  // Python 3.11: pickle.dumps(obj, protocol=p) of
  // {"a": [1, -1, 255, 256, 65535, 65536, -2**31, 2**31, 2**63-1, -2**63, 2**70], "b": (1.5, -0.0, None, True, False),
  //  "c": "héllo", "d": b"\x00\x01", "e": (), "f": (1,), "g": (1,2), "h": (1,2,3,4), "i": {1, 2}, "j": frozenset({"x"}),
  //  "k": [[]], "l": 1e300}
  private static final String P0 = "286470300a56610a70310a286c70320a49310a61492d310a61493235350a61493235360a614936353533350a614936353533360a61492d323134373438333634380a614c323134373438333634384c0a614c393232333337323033363835343737353830374c0a614c2d393232333337323033363835343737353830384c0a614c313138303539313632303731373431313330333432344c0a617356620a70330a2846312e350a462d302e300a4e4930310a4930300a7470340a7356630a70350a5668e96c6c6f0a70360a7356640a70370a635f636f646563730a656e636f64650a70380a28565c7530303030010a70390a566c6174696e310a7031300a747031310a527031320a7356650a7031330a28747356660a7031340a2849310a747031350a7356670a7031360a2849310a49320a747031370a7356680a7031380a2849310a49320a49330a49340a747031390a7356690a7032300a635f5f6275696c74696e5f5f0a7365740a7032310a28286c7032320a49310a6149320a61747032330a527032340a73566a0a7032350a635f5f6275696c74696e5f5f0a66726f7a656e7365740a7032360a28286c7032370a56780a7032380a61747032390a527033300a73566b0a7033310a286c7033320a286c7033330a6173566c0a7033340a4631652b3330300a732e";
  private static final String P2 = "80027d71002858010000006171015d7102284b014affffffff4bff4d00014dffff4a000001004a000000808a0500000080008a08ffffffffffffff7f8a0800000000000000808a0900000000000000004065580100000062710328473ff80000000000004780000000000000004e88897471045801000000637105580600000068c3a96c6c6f71065801000000647107635f636f646563730a656e636f64650a710858020000000001710958060000006c6174696e31710a86710b52710c580100000065710d29580100000066710e4b0185710f58010000006771104b014b028671115801000000687112284b014b024b034b047471135801000000697114635f5f6275696c74696e5f5f0a7365740a71155d7116284b014b026585711752711858010000006a7119635f5f6275696c74696e5f5f0a66726f7a656e7365740a711a5d711b580100000078711c6185711d52711e58010000006b711f5d71205d71216158010000006c7122477e37e43c8800759c752e";
  private static final String P4 = "800495d1000000000000007d94288c0161945d94284b014affffffff4bff4d00014dffff4a000001004a000000808a0500000080008a08ffffffffffffff7f8a0800000000000000808a09000000000000000040658c01629428473ff80000000000004780000000000000004e888974948c0163948c0668c3a96c6c6f948c01649443020001948c016594298c0166944b0185948c0167944b014b0286948c016894284b014b024b034b0474948c0169948f94284b014b02908c016a94288c01789491948c016b945d945d94618c016c94477e37e43c8800759c752e";
  private static final String P5 = "800595d1000000000000007d94288c0161945d94284b014affffffff4bff4d00014dffff4a000001004a000000808a0500000080008a08ffffffffffffff7f8a0800000000000000808a09000000000000000040658c01629428473ff80000000000004780000000000000004e888974948c0163948c0668c3a96c6c6f948c01649443020001948c016594298c0166944b0185948c0167944b014b0286948c016894284b014b024b034b0474948c0169948f94284b014b02908c016a94288c01789491948c016b945d945d94618c016c94477e37e43c8800759c752e";

  @ParameterizedTest
  @ValueSource(strings = {P0, P2, P4, P5})
  void readsPythonPicklesOfEveryProtocol(String hex) throws Exception {
    Map<?, ?> m = (Map<?, ?>) load(hex);
    assertEquals(List.of("a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"), new ArrayList<>(m.keySet()));
    assertEquals(List.of(1L, -1L, 255L, 256L, 65535L, 65536L, (long) Integer.MIN_VALUE, 1L << 31, Long.MAX_VALUE, Long.MIN_VALUE,
        BigInteger.TWO.pow(70)), m.get("a"));
    List<?> b = (List<?>) m.get("b");
    assertEquals(1.5, b.get(0));
    assertEquals(-0.0, b.get(1));
    assertNull(b.get(2));
    assertEquals(List.of(true, false), b.subList(3, 5));
    assertEquals("héllo", m.get("c"));
    assertArrayEquals(new byte[] {0, 1}, (byte[]) m.get("d"));
    assertEquals(List.of(), m.get("e"));
    assertEquals(List.of(1L), m.get("f"));
    assertEquals(List.of(1L, 2L), m.get("g"));
    assertEquals(List.of(1L, 2L, 3L, 4L), m.get("h"));
    assertEquals(Set.of(1L, 2L), m.get("i"));
    assertEquals(Set.of("x"), m.get("j"));
    assertEquals(List.of(List.of()), m.get("k"));
    assertEquals(1e300, m.get("l"));
  }

  @Test
  void writerOutputReadsBack() throws Exception {
    PickleWriter w = new PickleWriter();
    w.emptyDict().mark();
    long[] ints = {0, 255, 256, 65535, 65536, -1, Integer.MAX_VALUE, Integer.MIN_VALUE, 1L << 31, -(1L << 31) - 1, Long.MAX_VALUE, Long.MIN_VALUE, 255L << 32};
    w.string("ints").emptyList().mark();
    for (long v : ints) w.integer(v);
    w.appends();
    w.string("tuples").mark().longs(new long[0]).longs(new long[] {7}).longs(new long[] {1, 2}).longs(new long[] {1, 2, 3})
        .longs(new long[] {1, 2, 3, 4, 5}).tuple(5);
    w.string("misc").mark().none().bool(true).bool(false).string("ünï").global("collections", "OrderedDict")
        .tuple(0).reduce().tuple(5);
    w.setItems();
    Map<?, ?> m = (Map<?, ?>) PickleReader.load(w.finish(), FILE, PLAIN);
    List<Long> want = new ArrayList<>();
    for (long v : ints) want.add(v);
    assertEquals(want, m.get("ints"));
    assertEquals(List.of(List.of(), List.of(7L), List.of(1L, 2L), List.of(1L, 2L, 3L), List.of(1L, 2L, 3L, 4L, 5L)), m.get("tuples"));
    assertEquals(Arrays.asList(null, true, false, "ünï", Map.of()), m.get("misc"));
  }

  @Test
  void writerMatchesPythonsBytesForATensorRecord() {
    // pickle.dumps(("storage", 255, 65536, -1, (2, 3), "x"), protocol=2) is these bytes plus a BINPUT
    // after each str and tuple (Python memoizes them; the writer memoizes only globals)
    PickleWriter w = new PickleWriter();
    w.mark().string("storage").integer(255).integer(65536).integer(-1).longs(new long[] {2, 3}).string("x").tuple(6);
    assertEquals("800228580700000073746f726167654bff4a000001004affffffff4b024b0386580100000078742e",
        HexFormat.of().formatHex(w.finish()));
  }

  @Test
  void refusesForbiddenGlobalsWithTheirName() {
    // pickle.dumps(os.system) at protocol 2 names posix.system; REDUCE would call it
    byte[] p = "\u0080\u0002cposix\nsystem\nX\u0002\u0000\u0000\u0000ls\u0085R.".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
    TensorFormatException e = assertThrows(TensorFormatException.class, () -> PickleReader.load(p, FILE, PLAIN));
    assertTrue(e.getMessage().contains("posix.system"), e.getMessage());
    assertTrue(e.getMessage().startsWith(FILE.toString()), e.getMessage());
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "8002",                      // no STOP
      "80024b",                    // BININT1 without its byte
      "800258ffffff7f",            // BINUNICODE declaring 2 GiB
      "8002680a2e",                // BINGET of an empty memo
      "80022e",                    // STOP on an empty stack
      "80024b014b022e",            // two values left
      "8002742e",                  // TUPLE without MARK
      "80024b0161",                // APPEND to an int
      "80064b012e",                // protocol 6
      "8002694b012e",              // INST
      "800282012e",                // EXT1
      "80025d71006800612e",        // a list that contains itself
      "80025d4b01a52e",            // unknown opcode 0xa5
      "80024b015d5d732e",          // SETITEM with a list key
      "8002284b01752e"})           // SETITEMS with no dict beneath the mark
  void refusesMalformedPickles(String hex) {
    byte[] p = HexFormat.of().parseHex(hex);
    assertThrows(TensorFormatException.class, () -> PickleReader.load(p, FILE, PLAIN));
  }

  @Test
  void refusesDeepNestingButAcceptsTheLimit() throws Exception {
    assertThrows(TensorFormatException.class, () -> PickleReader.load(nested(PickleReader.MAX_DEPTH + 1), FILE, PLAIN));
    Object ok = PickleReader.load(nested(PickleReader.MAX_DEPTH), FILE, PLAIN);
    assertTrue(ok instanceof List);
  }

  /** depth lists each inside the last: ] ] ] ... a a a . */
  private static byte[] nested(int depth) {
    byte[] p = new byte[2 + depth + (depth - 1) + 1];
    int i = 0;
    p[i++] = (byte) 0x80;
    p[i++] = 2;
    for (int d = 0; d < depth; d++) p[i++] = ']';
    for (int d = 1; d < depth; d++) p[i++] = 'a';
    p[i] = '.';
    return p;
  }
}
