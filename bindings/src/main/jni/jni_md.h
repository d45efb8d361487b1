// JNI's machine-dependent types for the JNI glue, for whichever platform it is compiled. A JDK
// ships only its own platform's jni_md.h (include/linux here), and the Windows glue is
// cross-compiled: Windows is LLP64 (long has 32 bits, so jlong is long long) and exports with
// __declspec, as the JNI specification's Windows types say. Elsewhere the JDK's own header.
#ifndef JT_JNI_MD_H
#define JT_JNI_MD_H
#ifdef _WIN32
#define JNIEXPORT __declspec(dllexport)
#define JNIIMPORT __declspec(dllimport)
#define JNICALL  // x86-64 Windows has one calling convention (and JDK 25's jni.h defines it so)
typedef int jint;
typedef long long jlong;
typedef signed char jbyte;
#else
#include_next <jni_md.h>
#endif
#endif
