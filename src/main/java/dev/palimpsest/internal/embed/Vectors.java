package dev.palimpsest.internal.embed;

/** Vector arithmetic of the semantic channel. Stateless; thread-safe. */
public final class Vectors {
    private Vectors() {}

    /** {@code v} scaled to unit length in place and returned (a zero vector stays zero). */
    public static float[] unit(float[] v) {
        double sum = 0;
        for (float x : v) {
            sum += (double) x * x;
        }
        if (sum > 0) {
            float inv = (float) (1 / Math.sqrt(sum));
            for (int i = 0; i < v.length; i++) {
                v[i] *= inv;
            }
        }
        return v;
    }

    /** The dot product of two vectors of one length. */
    public static float dot(float[] a, float[] b) {
        float s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }

    /** The vector as little-endian float bytes (the cache's stored form). */
    public static byte[] bytes(float[] v) {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(v.length * 4).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        b.asFloatBuffer().put(v);
        return b.array();
    }

    /** The vector of {@link #bytes} form. */
    public static float[] of(byte[] bytes, int offset, int length) {
        float[] v = new float[length / 4];
        java.nio.ByteBuffer.wrap(bytes, offset, length).order(java.nio.ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(v);
        return v;
    }
}
