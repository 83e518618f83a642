using System.Text;
using Jint;
using JsonStringify.Internals;
using Microsoft.Extensions.ObjectPool;

namespace JsonStringify.Tests;

/// <summary>Tests that need gigabytes: one at a time, after the parallel ones, so that two never add up.</summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class MemoryHeavyDefinition
{
    public const string Name = "Memory-heavy";
}

[Collection(MemoryHeavyDefinition.Name)]
public class MemoryHeavyTests
{
    // 108 references to one 10M-char string: the output would be 1,080,000,325 chars, past the longest .NET string
    // (1,073,741,791), which is noticed while the 108th is being copied, before the output outgrows a string. The
    // builder comes from a pool that hands out one with room for a whole string, so that the 2 GB are written once,
    // not grown chunk by chunk.
    [Fact]
    public void OutputPastTheLongestStringIsARangeErrorNotAnOutOfMemoryException()
    {
        var pool = new OneBuilderPool(JsonConstants.MaxStringLength + (64 * 1024));
        using Engine engine = Js.Ours(serializerOptions: new JsonSerializerOptions { StringBuilderPool = pool });
        string result = Js.Run(engine, """
            var s = 'x'.repeat(10000000);
            var a = new Array(108).fill(s);
            try { JSON.stringify(a); } catch (e) { (e instanceof RangeError) + '|' + e.message }
            """);

        Assert.Equal("true|Invalid string length", result);
        Assert.InRange(pool.LongestLength, JsonConstants.MaxStringLength - 10_000_000, JsonConstants.MaxStringLength + (64 * 1024));
        Assert.True(pool.Returned);
    }

    // Hands out one builder, made at first use with the given capacity, and notes how long it grew.
    private sealed class OneBuilderPool(int capacity) : ObjectPool<StringBuilder>
    {
        private StringBuilder? _builder;

        public int LongestLength { get; private set; }

        public bool Returned { get; private set; }

        public override StringBuilder Get() => _builder ??= new StringBuilder(capacity);

        public override void Return(StringBuilder obj)
        {
            LongestLength = Math.Max(LongestLength, obj.Length);
            Returned = true;
            obj.Clear();
        }
    }
}
