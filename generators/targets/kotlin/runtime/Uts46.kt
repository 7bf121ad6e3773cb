package dev.agentcontracts.runtime

import java.text.Normalizer

/**
 * UTS 46 (Unicode IDNA Compatibility Processing) ToASCII with the URL Standard's parameters
 * (domain to ASCII, beStrict false): CheckHyphens false, CheckBidi true, CheckJoiners true,
 * UseSTD3ASCIIRules false, Transitional_Processing false (nontransitional: ß stays ß and becomes
 * xn--zca), VerifyDnsLength false. java.net.IDN is IDNA 2003 (it maps ß to ss) and is not used.
 *
 * The mapping table, joining types and viramas are data (uts46.txt beside this file in the
 * generator, a resource of the jar): Unicode 17.0.0's IdnaMappingTable as the Python package idna
 * 3.13 carries it; the file's header names the source. NFC and bidi classes come from the JDK.
 */
internal object Uts46 {
    private const val RESOURCE = "/dev/agentcontracts/runtime/uts46.txt"

    private class Table(val starts: IntArray, val statuses: CharArray, val mappings: Array<String>, val joining: Map<Int, Char>, val viramas: Set<Int>)

    private val table: Table by lazy { load() }

    private fun load(): Table {
        val text = Uts46::class.java.getResourceAsStream(RESOURCE)?.use { String(it.readBytes(), Charsets.UTF_8) }
            ?: error("$RESOURCE missing from the runtime's resources")
        val starts = ArrayList<Int>()
        val statuses = StringBuilder()
        val mappings = ArrayList<String>()
        val joining = HashMap<Int, Char>()
        val viramas = HashSet<Int>()
        for (line in text.lineSequence()) {
            if (line.isEmpty() || line.startsWith("#")) continue
            val fields = line.split(' ')
            when (fields[0]) {
                "m" -> {
                    starts += fields[1].toInt(16)
                    statuses.append(fields[2][0])
                    mappings += fields.drop(3).joinToString("") { String(Character.toChars(it.toInt(16))) }
                }
                "j" -> for (cp in fields[1].toInt(16)..fields[2].toInt(16)) joining[cp] = fields[3][0]
                "v" -> viramas += fields[1].toInt(16)
            }
        }
        return Table(starts.toIntArray(), statuses.toString().toCharArray(), mappings.toTypedArray(), joining, viramas)
    }

    private fun entry(cp: Int): Int {
        val found = table.starts.binarySearch(cp)
        return if (found >= 0) found else -found - 2
    }

    /** The ASCII form of [domain]; null when UTS 46 records an error. */
    fun toAscii(domain: String): String? {
        var failed = false
        val mapped = StringBuilder()
        domain.codePoints().forEach { cp ->
            val i = entry(cp)
            when (table.statuses[i]) {
                'V', 'D' -> mapped.appendCodePoint(cp)
                'M' -> mapped.append(table.mappings[i])
                'I' -> {}
                else -> failed = true
            }
        }
        if (failed) return null
        val labels = Normalizer.normalize(mapped, Normalizer.Form.NFC).split('.')
        val unicode = ArrayList<String>(labels.size)
        // A valid Punycode label is written back as it came (lowercased by the mapping), as ICU
        // (Node's URL) does, even where its decoded form is ASCII (xn--ab- stays xn--ab-).
        val ascii = ArrayList<String>(labels.size)
        for (label in labels) {
            ascii += label
            if (label.startsWith("xn--")) {
                if (label.any { it.code >= 0x80 }) return null
                val decoded = Punycode.decode(label.substring(4)) ?: return null
                if (decoded.isEmpty()) return null
                if (!valid(decoded)) return null
                unicode += decoded
            } else {
                if (!valid(label)) return null
                unicode += label
            }
        }
        if (unicode.any { isRtl(it) } && !unicode.all { it.isEmpty() || bidiOk(it) }) return null
        val out = StringBuilder()
        for ((i, label) in ascii.withIndex()) {
            if (i > 0) out.append('.')
            out.append(if (label.all { it.code < 0x80 }) label else "xn--" + (Punycode.encode(label) ?: return null))
        }
        return out.toString()
    }

    /** UTS 46 validity criteria (section 4.1) for a nontransitional label, without the bidi rule (which looks at the whole name). */
    private fun valid(label: String): Boolean {
        if (label.isEmpty()) return true
        if (!Normalizer.isNormalized(label, Normalizer.Form.NFC)) return false
        if (label.startsWith("xn--") || '.' in label) return false
        val cps = label.codePoints().toArray()
        if (Character.getType(cps[0]).let { it == Character.NON_SPACING_MARK.toInt() || it == Character.COMBINING_SPACING_MARK.toInt() || it == Character.ENCLOSING_MARK.toInt() }) return false
        for (cp in cps) if (table.statuses[entry(cp)] != 'V' && table.statuses[entry(cp)] != 'D') return false
        return joinersOk(cps)
    }

    /** RFC 5892 appendix A.1 and A.2 (CONTEXTJ): ZWNJ and ZWJ only after a virama, ZWNJ also between joining letters. */
    private fun joinersOk(cps: IntArray): Boolean {
        for ((i, cp) in cps.withIndex()) {
            if (cp != 0x200C && cp != 0x200D) continue
            if (i > 0 && cps[i - 1] in table.viramas) continue
            if (cp == 0x200D) return false
            var before = i - 1
            while (before >= 0 && table.joining[cps[before]] == 'T') before--
            var after = i + 1
            while (after < cps.size && table.joining[cps[after]] == 'T') after++
            val left = before >= 0 && table.joining[cps[before]] in setOf('L', 'D')
            val right = after < cps.size && table.joining[cps[after]] in setOf('R', 'D')
            if (!left || !right) return false
        }
        return true
    }

    private fun bidi(cp: Int): Byte = Character.getDirectionality(cp)

    private fun isRtl(label: String): Boolean = label.codePoints().anyMatch {
        bidi(it).let { d -> d == Character.DIRECTIONALITY_RIGHT_TO_LEFT || d == Character.DIRECTIONALITY_RIGHT_TO_LEFT_ARABIC || d == Character.DIRECTIONALITY_ARABIC_NUMBER }
    }

    /** The six conditions of RFC 5893 section 2, for a label of a bidi domain name. */
    private fun bidiOk(label: String): Boolean {
        val classes = label.codePoints().toArray().map(::bidi)
        val r = Character.DIRECTIONALITY_RIGHT_TO_LEFT
        val al = Character.DIRECTIONALITY_RIGHT_TO_LEFT_ARABIC
        val l = Character.DIRECTIONALITY_LEFT_TO_RIGHT
        val en = Character.DIRECTIONALITY_EUROPEAN_NUMBER
        val an = Character.DIRECTIONALITY_ARABIC_NUMBER
        val nsm = Character.DIRECTIONALITY_NONSPACING_MARK
        val shared = setOf(en, Character.DIRECTIONALITY_EUROPEAN_NUMBER_SEPARATOR, Character.DIRECTIONALITY_COMMON_NUMBER_SEPARATOR,
            Character.DIRECTIONALITY_EUROPEAN_NUMBER_TERMINATOR, Character.DIRECTIONALITY_OTHER_NEUTRALS, Character.DIRECTIONALITY_BOUNDARY_NEUTRAL, nsm)
        val last = classes.dropLastWhile { it == nsm }.lastOrNull() ?: return false
        return when (classes[0]) {
            r, al -> classes.all { it == r || it == al || it == an || it in shared } && last in setOf(r, al, en, an) && !(en in classes && an in classes)
            l -> classes.all { it == l || it in shared } && (last == l || last == en)
            else -> false
        }
    }
}
