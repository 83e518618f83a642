using System.Collections.Concurrent;
using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;
using Jint;

namespace JsonStringify.Benchmarks;

/// <summary>Output megabytes (UTF-16 chars as UTF-8 bytes of the result) written per second, from the mean time.</summary>
public sealed class ThroughputColumn : IColumn
{
    private static readonly ConcurrentDictionary<string, long> s_outputBytes = new();

    public string Id => nameof(ThroughputColumn);

    public string ColumnName => "Output MB/s";

    public bool AlwaysShow => true;

    public ColumnCategory Category => ColumnCategory.Custom;

    public int PriorityInCategory => 0;

    public bool IsNumeric => true;

    public UnitType UnitType => UnitType.Dimensionless;

    public string Legend => "Megabytes of UTF-8 JSON output per second (1 MB = 10^6 bytes), from the mean";

    public bool IsDefault(Summary summary, BenchmarkCase benchmarkCase) => false;

    public bool IsAvailable(Summary summary) => true;

    public string GetValue(Summary summary, BenchmarkCase benchmarkCase) =>
        GetValue(summary, benchmarkCase, SummaryStyle.Default);

    public string GetValue(Summary summary, BenchmarkCase benchmarkCase, SummaryStyle style)
    {
        var file = benchmarkCase.Parameters["File"] as string;
        var space = benchmarkCase.Parameters.Items.FirstOrDefault(p => p.Name == "Space")?.Value as int? ?? 0;
        BenchmarkDotNet.Mathematics.Statistics? stats = summary[benchmarkCase]?.ResultStatistics;
        if (file is null || stats is null)
        {
            return "-";
        }

        long bytes = s_outputBytes.GetOrAdd(file + "|" + space, _ => OutputBytes(file, space));
        double seconds = stats.Mean / 1e9;
        return (bytes / 1e6 / seconds).ToString("N1", System.Globalization.CultureInfo.InvariantCulture);
    }

    private static long OutputBytes(string file, int space)
    {
        var engine = new Engine();
        string json = new JsonSerializer(engine).SerializeToString(Corpus.Parse(engine, file), null, space)!;
        return System.Text.Encoding.UTF8.GetByteCount(json);
    }
}
