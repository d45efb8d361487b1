package org.jtensor;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** A test that leaks on purpose and waits for the leak detector's reports: MemoryAccounting excuses them (public: tests of other packages use it). */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface ExpectsLeakReports {}
