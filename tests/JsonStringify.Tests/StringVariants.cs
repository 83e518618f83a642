namespace JsonStringify.Tests;

/// <summary>
/// Texts for the escapers' edge cases. They work in blocks of 16 chars, the last block reaching back over chars
/// already done, and copy values under 16 chars in two overlapping halves.
/// </summary>
internal static class StringVariants
{
    /// <summary>
    /// Every length up to <paramref name="blocks"/> blocks, each clean and with each special text inserted at every
    /// position.
    /// </summary>
    public static IEnumerable<string> UpToBlocks(int blocks, IEnumerable<string> specials)
    {
        for (int length = 0; length <= blocks * 16; length++)
        {
            string clean = Letters(length);
            yield return clean;
            foreach (string special in specials)
            {
                for (int at = 0; at <= length; at++)
                {
                    yield return clean.Insert(at, special);
                }
            }
        }
    }

    /// <summary>A text of <paramref name="length"/> letters, none of which any escaper escapes.</summary>
    public static string Letters(int length) => string.Concat(Enumerable.Range(0, length).Select(i => (char)('a' + (i % 26))));
}
