using System.Diagnostics;
using System.Runtime.CompilerServices;
using Jint.Native;
using Jint.Native.Object;
using Jint.Runtime;
using Jint.Runtime.Descriptors;

namespace JsonStringify.Internals;

/// <summary>
/// The loop over open containers: SerializeJSONObject and SerializeJSONArray, one element or property at a time.
/// </summary>
internal sealed partial class Walker<TOutput>
{
    // The rest of SerializeJSONObject and SerializeJSONArray, for every open container, innermost first.
    private void Run()
    {
        while (_depth > 0)
        {
            ref Frame frame = ref _frames[_depth - 1];
            if (frame.Index == frame.Count)
            {
                Close(ref frame);
                continue;
            }

            if (frame.Kind == FrameKind.Array)
            {
                RunArray(ref frame);
                continue;
            }

            if (frame.Kind == FrameKind.ShapedObject)
            {
                RunShapedObject(ref frame);
                continue;
            }

            if (frame.Kind == FrameKind.TableObject)
            {
                RunTableObject(ref frame);
                continue;
            }

            ObjectInstance container = frame.Container!;
            ulong i = frame.Index++;
            JsValue key;
            JsValue value;
            string? quotedName = null;
            if (frame.Kind == FrameKind.ListedObject)
            {
                // A listed key the object has is read from its slot (unless the slot is lazy) or its table entry
                // (unless it is an accessor); one it lacks, with a clean prototype chain and no user code run since
                // the object was opened, is undefined without a lookup. Otherwise (found on the prototype chain,
                // perhaps as a getter, or the object changed) [[Get]] reads it.
                key = _propertyList!.Keys[(int)i];
                quotedName = QuotedNames(_propertyList)[i];

                // The value, when reading it runs no code; null when [[Get]] must read it.
                JsValue? read;
                bool lacksKey;
                if (frame.Slots is { } slots)
                {
                    int slot = slots[i];
                    lacksKey = slot < 0;
                    read = slot >= 0 && ValueReader.HasShape(container, frame.Shape!) ? ValueReader.TryGetSlot(container, slot) : null;
                }
                else
                {
                    PropertyDescriptor? own = _reader.IsTable(Unsafe.As<JsObject>(container)) ? container.GetOwnProperty(key) : null;
                    lacksKey = own == PropertyDescriptor.Undefined;
                    read = own is not null && IsPlainData(own) ? own.Value : null;
                }

                if (lacksKey && frame.Epoch == _epoch && frame.AbsentKeys is { } absent && absent[i])
                {
                    continue;
                }

                value = read ?? GetObserved(container, key);
            }
            else
            {
                key = frame.Keys![(int)i];
                quotedName = _propertyList is null ? null : QuotedNames(_propertyList)[i];
                value = GetObserved(container, key);
            }

            // May open a container, which pushes a frame (and may move the frames): frame is not used after this.
            WriteProperty(ref frame, container, key, quotedName ?? key.ToString(), quoted: quotedName is not null, value);
        }
    }

    // How many elements ahead RunArray has an element that is a container fetched (ReadAhead.Neighbourhood): one place
    // on is too late to help, four no better than two.
    private const ulong ContainerReadAhead = 2;

    // How many elements ahead OpenPureArray has an element fetched (ReadAhead.Line): a primitive is one small object,
    // read in a few nanoseconds, so the fetch is asked for well ahead.
    private const int PrimitiveReadAhead = 16;

    // The rest of an array, element by element, until it ends or an element opens a container (which pushes a frame
    // and may move the frames, so frame is not used after that).
    private void RunArray(ref Frame frame)
    {
        ObjectInstance container = frame.Container!;
        while (frame.Index < frame.Count)
        {
            _farRowFetch.Step();
            ulong i = frame.Index++;
            _output.WriteSeparator(i == 0);

            // A present element of a dense array is read from its storage; every other element goes through [[Get]].
            JsValue value;
            if (!_reader.TryGetDenseElement(container, i, out value))
            {
                value = ValueReader.GetElement(container, i);

                // A hole reads the prototype chain, and other arrays may have getters or traps.
                InvalidatePurity();
            }
            else if (_pureShapes && IsPure(ref frame, value, out object? shape, out ShapeLayout? layout))
            {
                // An element that is an object or an array is a few objects whose reads wait on memory: the element
                // ContainerReadAhead places on is fetched meanwhile (and more of it by OpenPure, for a large row).
                JsValue? ahead = null;
                if (_reader.TryGetDenseElement(container, i + ContainerReadAhead, out JsValue later))
                {
                    ReadAhead.Neighbourhood(later);
                    ahead = later;
                }

                bool opened = OpenPure(value, shape, layout, asElement: true, ahead);
                CountWork();
                if (opened)
                {
                    return;
                }

                continue;
            }

            Types type = value.Type;
            if (_replacer is null && IsJsonPrimitive(type))
            {
                WritePrimitive(value, type);
                CountWork();
                continue;
            }

            value = Prepare(value, container, null, i);
            if (!IsSerializable(value))
            {
                // undefined, a function or a symbol: null, a value like any other for the length limit and the
                // constraints (an array of holes is all nulls).
                _output.WriteLiteral(JsonLiteral.Null);
                CountWork();
                continue;
            }

            bool opens = value.Type == Types.Object;
            WriteValue(value);
            CountWork();
            if (opens)
            {
                return;
            }
        }
    }

    // The rest of a hidden-class object, as RunArray does. While the object keeps its hidden class each value is read
    // from its slot, which is exactly [[Get]] there; if user code changed the object mid-walk, the rest goes through
    // [[Get]], and so does a lazy slot, whose factory may run scripts. The class is checked before every read: host
    // code that the walk cannot see (a lazy slot's factory, a TextWriter, a constraint) may change it.
    private void RunShapedObject(ref Frame frame)
    {
        ObjectInstance container = frame.Container!;
        ShapeLayout layout = frame.Layout!;
        while (frame.Index < frame.Count)
        {
            ulong i = frame.Index++;
            JsValue key = layout.Keys[i];
            JsValue value;
            if (ValueReader.HasShape(container, frame.Shape!) && ValueReader.TryGetSlot(container, (int)i) is { } slotValue)
            {
                value = slotValue;
                if (_pureShapes && IsPure(ref frame, value, out object? childShape, out ShapeLayout? childLayout))
                {
                    if (OpenPureProperty(ref frame, key, QuotedNames(layout)[i], quoted: true, value, childShape, childLayout))
                    {
                        return;
                    }

                    continue;
                }
            }
            else
            {
                value = GetObserved(container, key);
            }

            if (WriteProperty(ref frame, container, key, QuotedNames(layout)[i], quoted: true, value))
            {
                return;
            }
        }
    }

    // The rest of a table object, as RunShapedObject does. The descriptor read when the object was opened is the
    // property itself while no user code has run since; after that, and for accessors, [[Get]] reads it. The key is
    // made a JsString only when user code or [[Get]] needs one.
    private void RunTableObject(ref Frame frame)
    {
        ObjectInstance container = frame.Container!;
        while (frame.Index < frame.Count)
        {
            _farRowFetch.Step();

            // Asked for again for each property: reading a child's table may have grown the stack.
            ref TableEntry entry = ref _tables.Entries[frame.TableStart + (int)frame.Index++];
            string name = entry.Name;
            PropertyDescriptor descriptor = entry.Descriptor;
            JsValue? key = null;
            JsValue value;
            if (frame.Epoch == _epoch && IsPlainData(descriptor))
            {
                value = descriptor.Value;
                if (_pureShapes && IsPure(ref frame, value, out object? childShape, out ShapeLayout? childLayout))
                {
                    if (OpenPureProperty(ref frame, null, name, quoted: false, value, childShape, childLayout))
                    {
                        return;
                    }

                    continue;
                }
            }
            else
            {
                key = new JsString(name);
                value = GetObserved(container, key);
            }

            if (WriteProperty(ref frame, container, key, name, quoted: false, value))
            {
                return;
            }
        }
    }

    // The rest of one property once its value is read, for every kind of object frame: SerializeJSONProperty, then
    // the name and the value, unless the value has no JSON form. With quoted set, name is already quoted and followed
    // by ':'; otherwise key may be null until user code needs it, and is then made from name. True when the value
    // opened a container, which pushed a frame and may have moved the frames: the caller then returns to Run at once
    // and does not touch frame again.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool WriteProperty(ref Frame frame, ObjectInstance container, JsValue? key, string name, bool quoted, JsValue value)
    {
        Debug.Assert(key is not null || !quoted, "a quoted name comes with its key");
        Types type = value.Type;
        if (_replacer is null && IsJsonPrimitive(type))
        {
            WritePropertyName(ref frame, key, name, quoted);
            WritePrimitive(value, type);
            CountWork();
            return false;
        }

        return WritePreparedProperty(ref frame, container, key, name, quoted, value);
    }

    // WriteProperty for a value that SerializeJSONProperty may change (an object, or any value with a replacer
    // function), kept out of the loops it would otherwise be inlined into.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private bool WritePreparedProperty(ref Frame frame, ObjectInstance container, JsValue? key, string name, bool quoted, JsValue value)
    {
        // User code may run here, but only through other walkers: this frame stays where it is.
        value = Prepare(value, container, key ?? new JsString(name), 0);
        if (!IsSerializable(value))
        {
            return false;
        }

        WritePropertyName(ref frame, key, name, quoted);
        bool opens = value.Type == Types.Object;
        WriteValue(value);
        CountWork();
        return opens;
    }

    // A property whose value IsPure accepted: its name, then the value opened at once. True when a container was
    // opened (see WriteProperty).
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool OpenPureProperty(ref Frame frame, JsValue? key, string name, bool quoted, JsValue value, object? shape, ShapeLayout? layout)
    {
        WritePropertyName(ref frame, key, name, quoted);
        bool opened = OpenPure(value, shape, layout, asElement: false, ahead: null);
        CountWork();
        return opened;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void WritePropertyName(ref Frame frame, JsValue? key, string name, bool quoted)
    {
        if (quoted)
        {
            WriteQuotedName(ref frame, key!, name);
        }
        else
        {
            WriteName(ref frame, name);
        }
    }

    // The names of a class or a property list, quoted and followed by ':'.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static string[] QuotedNames(ShapeLayout layout) => layout.QuotedKeys;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static string[] QuotedNames(PropertyList list) => list.QuotedKeys;

    // A table object's property name, quoted here, with the separator before it.
    private void WriteName(ref Frame frame, string name)
    {
        _output.WritePropertyName(name, frame.Empty);
        frame.Empty = false;
    }

    // A property's name, already quoted and followed by ':', with the separator before it; the key is the plain name
    // for outputs that make no text.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void WriteQuotedName(ref Frame frame, JsValue key, string quotedWithColon)
    {
        _output.WriteQuotedPropertyName(quotedWithColon, PlainName(key), frame.Empty);
        frame.Empty = false;
    }

    // [[Get]] where it may run user code (a getter, a proxy trap, a host object): the memo of clean prototypes goes.
    private JsValue GetObserved(ObjectInstance o, JsValue key)
    {
        JsValue value = ValueReader.Get(o, key);
        InvalidatePurity();
        return value;
    }

    private void Close(ref Frame frame)
    {
        if (frame.Kind == FrameKind.Array)
        {
            _output.EndArray(frame.Count == 0);
        }
        else
        {
            _output.EndObject(frame.Empty);
        }

        if (frame.Kind == FrameKind.TableObject)
        {
            // A table read ahead for a child that was not opened is above this one's on the stack.
            DropTableReadAhead();
            _tables.PopTo(frame.TableStart);
        }

        Exit();
        if (_output.Length >= _nextCheckLength)
        {
            CheckWork();
        }
    }
}
