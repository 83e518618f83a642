using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Diagnosers;
using BenchmarkDotNet.Jobs;
using BenchmarkDotNet.Order;

namespace JsonStringify.Benchmarks;

/// <summary>
/// The suite's configuration: memory diagnoser, ratio columns against Jint's serializer, the throughput column, and
/// a job of 4 warm-ups and 8 iterations (about 13 s per benchmark on two cores). The job is a default one, so a
/// job named on the command line (--job short, --job dry) replaces it instead of running beside it.
/// </summary>
public sealed class BenchmarkConfig : ManualConfig
{
    public BenchmarkConfig()
    {
        AddJob(Job.Default.WithLaunchCount(1).WithWarmupCount(4).WithIterationCount(8).WithId("Suite").AsDefault());
        AddDiagnoser(MemoryDiagnoser.Default);
        AddColumn(new ThroughputColumn(), BaselineRatioColumn.RatioMean, BaselineAllocationRatioColumn.RatioMean);
        WithOrderer(new DefaultOrderer(SummaryOrderPolicy.Declared));
        HideColumns(Column.Error, Column.StdDev, Column.Gen0, Column.Gen1, Column.Gen2);
    }
}
