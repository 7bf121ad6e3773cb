package dev.agentcontracts.runtime

/** SemVer 2.0 precedence, as the TypeScript runtime's compareSemver. */
object Semver {
    private const val PRE_ID = "(?:0|[1-9][0-9]*|[0-9]*[A-Za-z-][0-9A-Za-z-]*)"
    private val SEMVER = Regex(
        "(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)" +
            // SemVer 2.0.0 § 9: a numeric pre-release identifier has no leading zero ("0" and "0a" are fine).
            "(?:-($PRE_ID(?:\\.$PRE_ID)*))?(?:\\+[0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*)?",
    )
    private val NUMERIC = Regex("[0-9]+")

    /** Negative, zero or positive as [a] precedes, equals or follows [b]; null when either is not SemVer. */
    fun compare(a: String, b: String): Int? {
        val pa = SEMVER.matchEntire(a)?.groupValues ?: return null
        val pb = SEMVER.matchEntire(b)?.groupValues ?: return null
        for (i in 1..3) {
            val c = compareNumeric(pa[i], pb[i])
            if (c != 0) return c
        }
        // An empty group is an absent pre-release: a release follows its pre-releases.
        val preA = pa[4]
        val preB = pb[4]
        if (preA.isEmpty() || preB.isEmpty()) return if (preA == preB) 0 else if (preA.isEmpty()) 1 else -1
        val idsA = preA.split('.')
        val idsB = preB.split('.')
        for (i in 0 until maxOf(idsA.size, idsB.size)) {
            val x = idsA.getOrNull(i) ?: return -1
            val y = idsB.getOrNull(i) ?: return 1
            val nx = NUMERIC.matches(x)
            val ny = NUMERIC.matches(y)
            val c = when {
                nx && ny -> compareNumeric(x, y)
                nx -> -1
                ny -> 1
                else -> x.compareTo(y).coerceIn(-1, 1)
            }
            if (c != 0) return c
        }
        return 0
    }

    /** Compares digit strings of any length without parsing them. */
    private fun compareNumeric(a: String, b: String): Int =
        if (a.length != b.length) a.length.compareTo(b.length).coerceIn(-1, 1) else a.compareTo(b).coerceIn(-1, 1)
}
