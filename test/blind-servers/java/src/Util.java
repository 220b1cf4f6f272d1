import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.*;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.*;

final class Util {
    static final SecureRandom RND = new SecureRandom();
    static final DateTimeFormatter TS = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSxxx");

    static String ts(Instant i) { return TS.format(i.atOffset(ZoneOffset.UTC)); }
    static String now() { return ts(Instant.now()); }
    static Instant parseTs(String s) { return OffsetDateTime.parse(s).toInstant(); }

    static boolean isDateTime(String s) {
        try { OffsetDateTime.parse(s); return true; } catch (DateTimeParseException e) {
            try { LocalDateTime.parse(s); return true; } catch (DateTimeParseException e2) { return false; }
        }
    }
    static boolean isDate(String s) {
        try { LocalDate.parse(s); return true; } catch (DateTimeParseException e) { return false; }
    }

    static String hex(int bytes) {
        byte[] b = new byte[bytes]; RND.nextBytes(b);
        StringBuilder sb = new StringBuilder();
        for (byte x : b) sb.append(String.format("%02x", x));
        return sb.toString();
    }
    static String b62(int n) {
        String a = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
        StringBuilder sb = new StringBuilder();
        for (int k = 0; k < n; k++) sb.append(a.charAt(RND.nextInt(a.length())));
        return sb.toString();
    }
    static String sha1(String s) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-1");
            StringBuilder sb = new StringBuilder();
            for (byte x : md.digest(s.getBytes(StandardCharsets.UTF_8))) sb.append(String.format("%02x", x));
            return sb.toString();
        } catch (Exception e) { throw new RuntimeException(e); }
    }
    static String b64url(byte[] b) { return Base64.getUrlEncoder().withoutPadding().encodeToString(b); }

    // Cursor = opaque token encoding a position.
    static String cursor(int pos) { return "c" + b64url(("pos:" + pos).getBytes(StandardCharsets.UTF_8)); }
    static int decodeCursor(String c) {
        try {
            if (!c.startsWith("c")) throw new IllegalArgumentException();
            String s = new String(Base64.getUrlDecoder().decode(c.substring(1)), StandardCharsets.UTF_8);
            if (!s.startsWith("pos:")) throw new IllegalArgumentException();
            int p = Integer.parseInt(s.substring(4));
            if (p < 0) throw new IllegalArgumentException();
            return p;
        } catch (Exception e) {
            throw new ApiError(422, "invalid_cursor", "the 'after' cursor is not valid");
        }
    }

    static String str(Object o) { return o == null ? null : o.toString(); }
    static boolean containsCI(String hay, String needle) { return hay != null && hay.toLowerCase(Locale.ROOT).contains(needle.toLowerCase(Locale.ROOT)); }
}

final class ApiError extends RuntimeException {
    final int status; final String code; final List<String> details;
    ApiError(int status, String code, String message) { this(status, code, message, null); }
    ApiError(int status, String code, String message, List<String> details) { super(message); this.status = status; this.code = code; this.details = details; }
    static ApiError notFound(String what) { return new ApiError(404, "not_found", what + " not found"); }
    static ApiError forbidden(String m) { return new ApiError(403, "forbidden", m); }
    static ApiError invalid(String m) { return new ApiError(422, "validation_failed", m); }
    static ApiError bad(String m) { return new ApiError(400, "bad_request", m); }
}
