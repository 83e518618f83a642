namespace JsonStringify.Benchmarks;

/// <summary>What the runners report of their samples.</summary>
internal static class Statistics
{
    /// <summary>The middle value, or the mean of the two middle ones when there is an even number.</summary>
    public static double Median(IEnumerable<double> values)
    {
        double[] sorted = [.. values.Order()];
        return sorted.Length % 2 == 1 ? sorted[sorted.Length / 2] : (sorted[(sorted.Length / 2) - 1] + sorted[sorted.Length / 2]) / 2;
    }
}
