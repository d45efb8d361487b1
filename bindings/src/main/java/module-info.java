/**
 * The JavaCPP-generated bridge to libjtensor's C API. Only jtensor's own API module may call it:
 * every address it takes must be validated and held first (see org.jtensor.dispatch).
 */
module org.jtensor.bindings {
  requires org.bytedeco.javacpp;

  exports org.jtensor.bindings to org.jtensor;
}
