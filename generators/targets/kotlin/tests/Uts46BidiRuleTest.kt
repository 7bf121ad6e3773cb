package dev.agentcontracts.runtime

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test

/**
 * RFC 5893 section 2 (the Bidi Rule, which UTS 46 CheckBidi applies to every label of a domain name
 * holding a right-to-left character) for left-to-right labels, written by hand from the RFC: rule 5
 * allows only L, EN, ES, CS, ET, ON, BN and NSM in such a label, so an L label with an R letter in
 * it is refused. Node's URL parser (ada) accepts these hosts; Uts46NodeVerdictsTest leaves them out
 * for that reason, and this table holds the RFC's verdict for them instead.
 */
class Uts46BidiRuleTest {
    @Test
    fun `a left-to-right label holding a right-to-left letter fails rule 5 in a bidi domain name`() {
        val table = listOf(
            "a\u05d0" to null, // L then R in one label
            "ab\u05d0c" to null,
            "\u05d0.a\u05d0" to null, // the second label is LTR and holds R
            "\u05d0.ab" to "xn--4db.ab", // L and nothing else: allowed
            "\u05d0.a1" to "xn--4db.a1", // L then EN: allowed, and EN may end an LTR label (rule 6)
        )
        for ((domain, expected) in table) assertEquals(expected, Uts46.toAscii(domain), domain)
    }
}
