package org.jtensor.io;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.Objects;
import org.jtensor.Tensor;

/**
 * NumPy's .npy (one array) and .npz (a zip of named .npy arrays) files.
 *
 * <p>Reading takes format versions 1.0, 2.0 and 3.0, C and Fortran order (a Fortran-order array
 * loads as a tensor with Fortran strides over its bytes, as np.load gives it), and the dtypes
 * both libraries have: bool, uint8, int8, int16, int32, int64, float16, float32, float64, in
 * either byte order (big-endian arrays are byte-swapped on load). Other NumPy dtypes (uint16 to
 * uint64, complex, strings, objects, structured) are refused by name, as is saving bfloat16,
 * which NumPy lacks. A bad file raises {@link TensorFormatException} naming it and the problem.
 *
 * <p>Writing follows np.save: version 1.0, little-endian, C order for a C-contiguous tensor and
 * Fortran order for an F-contiguous one (so a transposed matrix is written without a copy), a
 * C-ordered copy otherwise.
 */
public final class Npy {
  private Npy() {}

  public static void save(Tensor tensor, Path file) throws IOException {
    Objects.requireNonNull(tensor, "save(): tensor");
    try (NpyArrays.Layout layout = NpyArrays.layout("save", tensor)) {
      ReplacingWrite.write(file, ch -> layout.write("save", ch));
    }
  }

  /** The array in a .npy file, as a new tensor the caller closes. */
  public static Tensor load(Path file) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      return NpyArrays.read(file, "the file", ch, ch.size());
    }
  }

  /** The arrays of a .npz file by name (entry name less ".npy"), in archive order; the caller closes each. */
  public static Map<String, Tensor> loadNpz(Path file) throws IOException {
    return NpzArchive.read(file);
  }

  /** Writes the tensors as an uncompressed .npz, as np.savez does. */
  public static void saveNpz(Map<String, Tensor> tensors, Path file) throws IOException {
    NpzArchive.write("saveNpz", tensors, file, false);
  }

  /** Writes the tensors as a deflated .npz, as np.savez_compressed does. */
  public static void saveNpzCompressed(Map<String, Tensor> tensors, Path file) throws IOException {
    NpzArchive.write("saveNpzCompressed", tensors, file, true);
  }
}
