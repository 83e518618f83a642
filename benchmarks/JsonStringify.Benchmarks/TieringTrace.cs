using System.Collections.ObjectModel;
using System.Diagnostics.Tracing;
using System.Globalization;

namespace JsonStringify.Benchmarks;

/// <summary>
/// A record of the runtime's compiling in one process, for <c>--trace DIR</c> of the fresh-process runners: every
/// method compiled (with its tier and how long it took), every precompiled (ReadyToRun) method called for the first
/// time, and every pause and resume of tiered compilation. The runtime pauses its background compiler whenever a
/// method is called for the first time, and resumes only after 100 ms in which none is; the rows say which call paused
/// it and when. Events are kept as they come, with nothing formatted until <see cref="Write"/>, so that the listener
/// calls no method for the first time while the process is measured (which would pause the compiler itself).
/// </summary>
internal sealed class TieringTrace : EventListener
{
    // The runtime's keywords: JIT (method compile events), Compilation (tiered-compilation events) and
    // CompilationDiagnostic (ReadyToRun entry points, which name a precompiled method at its first call).
    private const EventKeywords Keywords = (EventKeywords)(0x10 | 0x10_0000_0000 | 0x20_0000_0000);

    // Enough for a few seconds of a process's first calls; events past it are dropped and counted.
    private const int Capacity = 1 << 18;

    // The events as they came, unformatted.
    private readonly Event[] _events = new Event[Capacity];
    private readonly DateTime _start = DateTime.UtcNow;
    private int _count;

    // Where the measurement was when, as the runner marked it (the start of each round, say).
    private readonly (DateTime Time, string Label)[] _marks = new (DateTime, string)[64];
    private int _markCount;

    /// <summary>The trace of this process, while one is recorded; null otherwise.</summary>
    public static TieringTrace? Current { get; private set; }

    public TieringTrace()
    {
        Current = this;
        Mark("trace started");
    }

    public override void Dispose()
    {
        Current = null;
        base.Dispose();
    }

    /// <summary>
    /// Notes where the measurement is, with a label made beforehand. It calls nothing for the first time after the
    /// constructor has called it once.
    /// </summary>
    public void Mark(string label)
    {
        if (_markCount < _marks.Length)
        {
            _marks[_markCount++] = (DateTime.UtcNow, label);
        }
    }

    /// <summary>
    /// Writes one tab-separated row per event to <paramref name="path"/>, in time order: ms since the listener started,
    /// what happened, the thread, the method (or the event's fields, or the runner's mark) and, for a compile, how long
    /// it took in ms (a compile's row is at its start).
    /// </summary>
    public void Write(string path)
    {
        var rows = new List<(double Ms, string Text)>();
        void Add(DateTime time, string what, long? thread, string subject, string took)
        {
            double ms = (time - _start).TotalMilliseconds;
            rows.Add((ms, string.Create(CultureInfo.InvariantCulture, $"{ms:F1}\t{what}\t{thread}\t{subject}\t{took}")));
        }

        for (int i = 0; i < _markCount; i++)
        {
            Add(_marks[i].Time, "mark", null, _marks[i].Label, string.Empty);
        }

        var jitting = new Dictionary<(ulong Method, long Thread), DateTime>();
        int count = Math.Min(_count, Capacity);
        for (int i = 0; i < count; i++)
        {
            (DateTime time, string name, long thread, ReadOnlyCollection<object?> payload, ReadOnlyCollection<string> names) = _events[i];
            if (payload is null)
            {
                continue;
            }

            object? Field(string field) => payload[names.IndexOf(field)];
            string Method() => $"{Field("MethodNamespace")}::{Field("MethodName")}";
            if (name.StartsWith("MethodJittingStarted", StringComparison.Ordinal))
            {
                jitting[(Convert.ToUInt64(Field("MethodID"), CultureInfo.InvariantCulture), thread)] = time;
            }
            else if (name.StartsWith("MethodLoadVerbose", StringComparison.Ordinal)
                && jitting.Remove((Convert.ToUInt64(Field("MethodID"), CultureInfo.InvariantCulture), thread), out DateTime started))
            {
                // The tier is in bits 7-10 of the flags (the runtime's MethodFlags).
                uint tier = (Convert.ToUInt32(Field("MethodFlags"), CultureInfo.InvariantCulture) >> 7) & 0xF;
                Add(started, TierName(tier), thread, Method(), (time - started).TotalMilliseconds.ToString("F2", CultureInfo.InvariantCulture));
            }
            else if (name.StartsWith("R2RGetEntryPoint", StringComparison.Ordinal) && !name.Contains("Start", StringComparison.Ordinal))
            {
                Add(time, "first call, precompiled", thread, Method(), string.Empty);
            }
            else if (name is "TieredCompilationPause" or "TieredCompilationResume")
            {
                string fields = string.Join(", ", names.Select((field, k) => $"{field}={payload[k]}").Where(f => !f.StartsWith("ClrInstanceID", StringComparison.Ordinal)));
                Add(time, name.EndsWith("Pause", StringComparison.Ordinal) ? "compiler paused" : "compiler resumed", thread, fields, string.Empty);
            }
        }

        IEnumerable<string> lines = rows.OrderBy(row => row.Ms).Select(row => row.Text);
        string dropped = _count > Capacity ? $"{_count - Capacity} events after the first {Capacity} were dropped" : "no events dropped";
        File.WriteAllLines(path, [$"ms\twhat\tthread\tmethod\tcompile ms ({dropped})", .. lines]);
    }

    protected override void OnEventSourceCreated(EventSource eventSource)
    {
        if (eventSource.Name == "Microsoft-Windows-DotNETRuntime")
        {
            EnableEvents(eventSource, EventLevel.Verbose, Keywords);
        }
    }

    protected override void OnEventWritten(EventWrittenEventArgs eventData)
    {
        int i = Interlocked.Increment(ref _count) - 1;
        if (i < Capacity && eventData.Payload is not null && eventData.PayloadNames is not null)
        {
            _events[i] = new Event(eventData.TimeStamp, eventData.EventName ?? string.Empty, eventData.OSThreadId, eventData.Payload, eventData.PayloadNames);
        }
    }

    private static string TierName(uint tier) => tier switch
    {
        1 => "compiled, minimal optimisation",
        2 => "compiled, optimised",
        3 => "compiled, tier 0",
        4 => "compiled, tier 1",
        5 => "compiled, on-stack replacement",
        6 => "compiled, tier 0 instrumented",
        7 => "compiled, tier 1 instrumented",
        _ => $"compiled, tier {tier}",
    };

    private readonly record struct Event(
        DateTime Time, string Name, long Thread, ReadOnlyCollection<object?> Payload, ReadOnlyCollection<string> Names);
}
