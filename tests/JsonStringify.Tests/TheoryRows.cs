namespace JsonStringify.Tests;

/// <summary>Theory rows that run each named case once through each way of serializing it (a sink, a bridge).</summary>
internal static class TheoryRows
{
    /// <summary>
    /// Every name of <paramref name="names"/> with every value of <typeparamref name="TWay"/>, names outermost.
    /// </summary>
    public static TheoryData<string, TWay> EachWithEvery<TWay>(IEnumerable<string> names)
        where TWay : struct, Enum
    {
        var rows = new TheoryData<string, TWay>();
        foreach (string name in names)
        {
            foreach (TWay way in Enum.GetValues<TWay>())
            {
                rows.Add(name, way);
            }
        }

        return rows;
    }
}
