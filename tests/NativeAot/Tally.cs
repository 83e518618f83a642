namespace JsonStringify.NativeAot;

/// <summary>The checks' outcomes: counts, and the first failures written out as they come.</summary>
internal sealed class Tally
{
    private const int ReportedFailures = 20;

    public int Passed { get; private set; }

    public int Failed { get; private set; }

    /// <summary>Counts a check named <paramref name="name"/>; a failure is written out with
    /// <paramref name="detail"/>, which is only asked for then.</summary>
    public void Check(string name, bool passed, Func<string> detail)
    {
        if (passed)
        {
            Passed++;
            return;
        }

        if (++Failed <= ReportedFailures)
        {
            Console.WriteLine($"FAILED {name}: {detail()}");
        }
    }
}
