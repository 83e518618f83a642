using System.Collections.Concurrent;
using System.Globalization;
using System.Reflection;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;

namespace JsonStringify.Benchmarks;

/// <summary>A benchmark whose output size the throughput column can ask for, after its global setup ran.</summary>
public interface IProducesOutput
{
    /// <summary>The UTF-8 size of one call's JSON output.</summary>
    long OutputBytes();
}

/// <summary>
/// Output megabytes per second (UTF-8 bytes of the JSON text, 1 MB = 10^6 bytes), from the mean. The size is measured
/// in the host process by running the benchmark's setup with the case's parameters and serializing once.
/// </summary>
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
        BenchmarkDotNet.Mathematics.Statistics? stats = summary[benchmarkCase]?.ResultStatistics;
        if (stats is null || !typeof(IProducesOutput).IsAssignableFrom(benchmarkCase.Descriptor.Type))
        {
            return "-";
        }

        string key = benchmarkCase.Descriptor.Type.FullName + "|" + benchmarkCase.Parameters.DisplayInfo;
        long bytes = s_outputBytes.GetOrAdd(key, _ => Measure(benchmarkCase));
        return (bytes / 1e6 / (stats.Mean / 1e9)).ToString("N1", CultureInfo.InvariantCulture);
    }

    private static long Measure(BenchmarkCase benchmarkCase)
    {
        Type type = benchmarkCase.Descriptor.Type;
        object instance = Activator.CreateInstance(type)!;
        foreach (var parameter in benchmarkCase.Parameters.Items)
        {
            type.GetProperty(parameter.Name)!.SetValue(instance, parameter.Value);
        }

        type.GetMethods().Single(m => m.GetCustomAttribute<GlobalSetupAttribute>() is not null).Invoke(instance, null);
        try
        {
            return ((IProducesOutput)instance).OutputBytes();
        }
        finally
        {
            (instance as IDisposable)?.Dispose();
        }
    }
}
