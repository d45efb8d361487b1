package org.jtensor;

import org.jtensor.dispatch.NativeContract;
import org.jtensor.dispatch.Op;
import org.jtensor.dispatch.OpKind;
import org.jtensor.dispatch.ReduceKind;

import static org.jtensor.dispatch.OpKind.ARITH;
import static org.jtensor.dispatch.OpKind.PREDICATE;
import static org.jtensor.dispatch.OpKind.TO_FLOAT;
import static org.jtensor.dispatch.OpKind.WHERE;

/**
 * The op registry: every op jtensor runs, stated once (name, kernel, arity, dtype rule; the
 * derivative joins with autograd). Tensor's methods name these entries; the native kernel tables
 * are checked against them when this class loads (see {@link NativeContract}), and a mismatch
 * stops the load with a message naming the op.
 */
final class Ops {
  private Ops() {}

  // ---- elementwise, unary ----
  static final Op NEG = unary("neg", ARITH);
  static final Op ABS = unary("abs", ARITH);
  static final Op SIGN = unary("sign", ARITH);
  static final Op RECIPROCAL = unary("reciprocal", TO_FLOAT);
  static final Op EXP = unary("exp", TO_FLOAT);
  static final Op EXP2 = unary("exp2", TO_FLOAT);
  static final Op LOG = unary("log", TO_FLOAT);
  static final Op LOG2 = unary("log2", TO_FLOAT);
  static final Op LOG1P = unary("log1p", TO_FLOAT);
  static final Op EXPM1 = unary("expm1", TO_FLOAT);
  static final Op SQRT = unary("sqrt", TO_FLOAT);
  static final Op RSQRT = unary("rsqrt", TO_FLOAT);
  static final Op SIN = unary("sin", TO_FLOAT);
  static final Op COS = unary("cos", TO_FLOAT);
  static final Op TAN = unary("tan", TO_FLOAT);
  static final Op TANH = unary("tanh", TO_FLOAT);
  static final Op SIGMOID = unary("sigmoid", TO_FLOAT);
  static final Op ERF = unary("erf", TO_FLOAT);
  static final Op FLOOR = unary("floor", ARITH);
  static final Op CEIL = unary("ceil", ARITH);
  static final Op ROUND = unary("round", ARITH);
  static final Op TRUNC = unary("trunc", ARITH);
  static final Op RELU = unary("relu", ARITH);
  static final Op GELU = unary("gelu", ARITH);
  static final Op GELU_TANH = Op.elementwise("gelu", "gelu_tanh", 1, ARITH);
  static final Op SILU = unary("silu", ARITH);
  static final Op SOFTPLUS = unary("softplus", ARITH);
  static final Op LEAKY_RELU = Op.elementwise("leakyRelu", "leaky_relu", 1, ARITH);
  static final Op CLAMP = Op.elementwise("clamp", "clamp_scalar", 1, ARITH);
  static final Op CLAMP_MIN = Op.elementwise("clampMin", "clamp_scalar", 1, ARITH);
  static final Op CLAMP_MAX = Op.elementwise("clampMax", "clamp_scalar", 1, ARITH);
  static final Op BITWISE_NOT = Op.elementwise("bitwiseNot", "bitwise_not", 1, ARITH);
  static final Op LOGICAL_NOT = Op.elementwise("logicalNot", "logical_not", 1, PREDICATE);
  static final Op ISNAN = unary("isnan", PREDICATE);

  // ---- elementwise, binary ----
  static final Op ADD = binary("add", ARITH);
  static final Op SUB = binary("sub", ARITH);
  static final Op MUL = binary("mul", ARITH);
  static final Op DIV = binary("div", TO_FLOAT);
  static final Op DIV_TRUNC = Op.elementwise("div", "div_trunc", 2, ARITH);
  static final Op DIV_FLOOR = Op.elementwise("div", "div_floor", 2, ARITH);
  static final Op FLOOR_DIVIDE = Op.elementwise("floorDivide", "div_floor", 2, ARITH);
  static final Op REMAINDER = binary("remainder", ARITH);
  static final Op POW = binary("pow", ARITH);
  static final Op MAXIMUM = binary("maximum", ARITH);
  static final Op MINIMUM = binary("minimum", ARITH);
  static final Op BITWISE_AND = Op.elementwise("bitwiseAnd", "bitwise_and", 2, ARITH);
  static final Op BITWISE_OR = Op.elementwise("bitwiseOr", "bitwise_or", 2, ARITH);
  static final Op BITWISE_XOR = Op.elementwise("bitwiseXor", "bitwise_xor", 2, ARITH);
  static final Op EQ = binary("eq", PREDICATE);
  static final Op NE = binary("ne", PREDICATE);
  static final Op LT = binary("lt", PREDICATE);
  static final Op LE = binary("le", PREDICATE);
  static final Op GT = binary("gt", PREDICATE);
  static final Op GE = binary("ge", PREDICATE);
  static final Op LOGICAL_AND = Op.elementwise("logicalAnd", "logical_and", 2, PREDICATE);
  static final Op LOGICAL_OR = Op.elementwise("logicalOr", "logical_or", 2, PREDICATE);
  static final Op LOGICAL_XOR = Op.elementwise("logicalXor", "logical_xor", 2, PREDICATE);

  // ---- elementwise, ternary ----
  static final Op LERP = Op.elementwise("lerp", "lerp", 3, ARITH);
  static final Op CLAMP_TENSORS = Op.elementwise("clamp", "clamp", 3, ARITH);
  static final Op WHERE_OP = Op.elementwise("where", "where", 3, WHERE);
  static final Op MASKED_FILL = Op.elementwise("maskedFill", "where", 3, WHERE);

  // ---- reductions and scans ----
  static final Op SUM = Op.reduction("sum", "sum", ReduceKind.ACCUMULATE);
  static final Op PROD = Op.reduction("prod", "prod", ReduceKind.ACCUMULATE);
  static final Op MEAN = Op.reduction("mean", "sum", ReduceKind.ACCUMULATE);  // a scaled sum; floating input only
  static final Op AMAX = Op.reduction("amax", "amax", ReduceKind.SAME);
  static final Op AMIN = Op.reduction("amin", "amin", ReduceKind.SAME);
  static final Op ANY = Op.reduction("any", "any", ReduceKind.BOOL);
  static final Op ALL = Op.reduction("all", "all", ReduceKind.BOOL);
  static final Op ARGMAX = Op.reduction("argmax", "argmax", ReduceKind.INDEX);
  static final Op ARGMIN = Op.reduction("argmin", "argmin", ReduceKind.INDEX);
  static final Op MAX = Op.reduction("max", "argmax", ReduceKind.INDEX);  // max(dim): values and indices
  static final Op MIN = Op.reduction("min", "argmin", ReduceKind.INDEX);
  static final Op CUMSUM = Op.scan("cumsum", "cumsum");
  static final Op CUMPROD = Op.scan("cumprod", "cumprod");

  /** Ops that divide integers: a zero divisor raises ArithmeticException, as PyTorch's ZeroDivisionError. */
  static boolean dividesIntegers(Op op) {
    return op == DIV_TRUNC || op == DIV_FLOOR || op == FLOOR_DIVIDE || op == REMAINDER;
  }

  private static Op unary(String name, OpKind kind) {
    return Op.elementwise(name, name, 1, kind);
  }

  private static Op binary(String name, OpKind kind) {
    return Op.elementwise(name, name, 2, kind);
  }

  static {
    NativeContract.verify(Op.registered());
  }
}
