package dev.palimpsest.model;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a method or class whose mutants are equivalent or change only speed, so mutation testing
 * (PIT, {@code -Pmutation}) skips it; every use carries a one-line reason.
 */
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.METHOD, ElementType.TYPE, ElementType.CONSTRUCTOR})
public @interface DoNotMutate {
    /** Why this code's mutants cannot be killed by behaviour (equivalent, or speed only). */
    String value();
}
