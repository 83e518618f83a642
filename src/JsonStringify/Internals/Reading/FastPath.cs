using System.Diagnostics;
using System.Diagnostics.Tracing;
using System.Globalization;
using System.Text;
using Jint;

namespace JsonStringify.Internals;

/// <summary>
/// The verdicts of the probes, one per <see cref="JintAssumption"/>, each reached at most once per process at the first
/// use of what rests on it: the hidden-class and dense-array probes when the first serializer is made, the evaluation
/// state at the first call of a serializer, the call probes at the first toJSON or replacer call, the table reader's at
/// the first table. A failed probe is reported once, to the
/// <c>JsonStringify</c> event source, and from then on <see cref="JsonSerializer.FastPathDisabledReason"/> names it.
/// </summary>
internal static class FastPath
{
    private static readonly JintAssumption[] s_assumptions = Enum.GetValues<JintAssumption>()
        .Where(a => a != JintAssumption.None && a != JintAssumption.All)
        .ToArray();

    // Indexed by the flag's bit; each runs its probe at its first read (a null reason: the assumption holds).
    private static readonly Lazy<Verdict>[] s_verdicts = CreateVerdicts();

    /// <summary>The Jint release this process runs on, as its assembly says.</summary>
    public static string JintVersion { get; } =
        typeof(Engine).Assembly.GetCustomAttributes(typeof(System.Reflection.AssemblyInformationalVersionAttribute), false)
            .OfType<System.Reflection.AssemblyInformationalVersionAttribute>()
            .Select(a => a.InformationalVersion.Split('+')[0])
            .FirstOrDefault() ?? typeof(Engine).Assembly.GetName().Version?.ToString(3) ?? "unknown";

    /// <summary>Set by the test suite (before any serializer is made) to run every test on the public reader.</summary>
    public static bool ForcePublicReader { get; set; }

    /// <summary>Every assumption, one flag each.</summary>
    public static ReadOnlySpan<JintAssumption> Assumptions => s_assumptions;

    /// <summary>
    /// Whether <paramref name="assumption"/> (one flag) held when probed; probes it now if no use has yet.
    /// </summary>
    public static bool Holds(JintAssumption assumption) => VerdictOf(assumption).Reason is null;

    /// <summary>
    /// Why <paramref name="assumption"/> (one flag) does not hold, or null when it does; probes it if need be.
    /// </summary>
    public static string? Failure(JintAssumption assumption) => VerdictOf(assumption).Reason;

    /// <summary>
    /// Which of <paramref name="wanted"/> do not hold on this Jint, and why, one line each; null when all hold. Probes
    /// every one not probed yet (a few tens of milliseconds, once per process).
    /// </summary>
    public static string? DescribeFailures(JintAssumption wanted)
    {
        StringBuilder? text = null;
        foreach (JintAssumption assumption in s_assumptions)
        {
            if ((wanted & assumption) != 0 && Failure(assumption) is { } reason)
            {
                text ??= new StringBuilder();
                text.Append(CultureInfo.InvariantCulture, $"{(text.Length == 0 ? string.Empty : Environment.NewLine)}{assumption}: {reason}");
            }
        }

        return text?.ToString();
    }

    private static Verdict VerdictOf(JintAssumption assumption)
    {
        Debug.Assert(assumption != JintAssumption.None && (assumption & (assumption - 1)) == 0, "one assumption at a time");
        return s_verdicts[System.Numerics.BitOperations.TrailingZeroCount((int)assumption)].Value;
    }

    private static Lazy<Verdict>[] CreateVerdicts()
    {
        var verdicts = new Lazy<Verdict>[s_assumptions.Length];
        foreach (JintAssumption assumption in s_assumptions)
        {
            int bit = System.Numerics.BitOperations.TrailingZeroCount((int)assumption);
            verdicts[bit] = new Lazy<Verdict>(() => Probe(assumption), LazyThreadSafetyMode.ExecutionAndPublication);
        }

        return verdicts;
    }

    private static Verdict Probe(JintAssumption assumption) => new(Judge(assumption, () => JintInternals.Probe(assumption)));

    /// <summary>
    /// Runs <paramref name="probe"/> and says why <paramref name="assumption"/> does not hold (a disagreement, or what
    /// the probe threw: a member missing or changed, or anything else, since the probe only ever touches objects of its
    /// own engine), or null when it holds. A failure is reported to the event source.
    /// </summary>
    internal static string? Judge(JintAssumption assumption, Func<bool> probe)
    {
        string? reason;
        try
        {
            reason = probe() ? null : "its probe disagreed with what Jint's public API says";
        }
#pragma warning disable CA1031 // Whatever a probe throws means that the fast path must not rely on the assumption.
        catch (Exception e)
#pragma warning restore CA1031
        {
            reason = $"{e.GetType().Name}: {e.Message}";
        }

        if (reason is not null)
        {
            FastPathEvents.Log.AssumptionFailed(JintVersion, assumption.ToString(), reason);
        }

        return reason;
    }

    private sealed record Verdict(string? Reason);
}

/// <summary>
/// The library's event source, <c>JsonStringify</c>: a warning when part of the fast path is off on this Jint
/// release, once per process and part. EventListener, dotnet-trace and dotnet-monitor pick it up.
/// </summary>
[EventSource(Name = "JsonStringify")]
internal sealed class FastPathEvents : EventSource
{
    public static readonly FastPathEvents Log = new();

    private FastPathEvents()
    {
    }

    [Event(1, Level = EventLevel.Warning, Message = "On Jint {0}, the fast path's assumption {1} does not hold ({2}): what rests on it reads through Jint's public API, with the same output, more slowly.")]
    public void AssumptionFailed(string jintVersion, string assumption, string reason) => WriteEvent(1, jintVersion, assumption, reason);
}
