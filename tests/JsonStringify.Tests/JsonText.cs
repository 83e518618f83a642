using System.Globalization;

namespace JsonStringify.Tests;

/// <summary>Comparison of two JSON texts that may differ only where Jint departs from the spec.</summary>
internal static class JsonText
{
    // Every double at or above 2^53 is an integer; Jint prints those with all their digits, the spec with the
    // shortest that round-trip.
    private const double TwoToThe53 = 9007199254740992d;

    /// <summary>
    /// Asserts that <paramref name="actual"/> equals <paramref name="expected"/> char for char, except for number
    /// tokens of magnitude 2^53 or more that denote the same double. Returns how many such tokens differed.
    /// </summary>
    public static int AssertEqualExceptLargeIntegers(string expected, string actual)
    {
        int differing = 0;
        int i = 0;
        int j = 0;
        while (i < expected.Length && j < actual.Length)
        {
            char c = expected[i];
            if (c == '"')
            {
                int end = StringEnd(expected, i);
                Assert.True(
                    string.CompareOrdinal(expected, i, actual, j, end - i) == 0,
                    $"string token differs at {i}: {Excerpt(expected, i)} vs {Excerpt(actual, j)}");
                j += end - i;
                i = end;
                continue;
            }

            if (c == '-' || char.IsAsciiDigit(c))
            {
                int endExpected = NumberEnd(expected, i);
                int endActual = NumberEnd(actual, j);
                string a = expected[i..endExpected];
                string b = actual[j..endActual];
                if (a != b)
                {
                    double x = double.Parse(a, CultureInfo.InvariantCulture);
                    double y = double.Parse(b, CultureInfo.InvariantCulture);
                    Assert.True(
                        x == y && Math.Abs(x) >= TwoToThe53,
                        $"number differs at {i}: {a} vs {b}");
                    differing++;
                }

                i = endExpected;
                j = endActual;
                continue;
            }

            Assert.True(c == actual[j], $"text differs at {i}: {Excerpt(expected, i)} vs {Excerpt(actual, j)}");
            i++;
            j++;
        }

        Assert.True(i == expected.Length && j == actual.Length, "one text is longer than the other");
        return differing;
    }

    private static int StringEnd(string s, int start)
    {
        int k = start + 1;
        while (s[k] != '"')
        {
            k += s[k] == '\\' ? 2 : 1;
        }

        return k + 1;
    }

    private static int NumberEnd(string s, int start)
    {
        int k = start;
        while (k < s.Length && (char.IsAsciiDigit(s[k]) || s[k] is '-' or '+' or '.' or 'e' or 'E'))
        {
            k++;
        }

        return k;
    }

    private static string Excerpt(string s, int at) => s.Substring(at, Math.Min(40, s.Length - at));
}
