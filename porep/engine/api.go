// SPDX-License-Identifier: Apache-2.0 OR MIT

package engine

import "github.com/cuseal/cuseal/porep/engine/engineapi"

// The engine's external contract lives in porep/engine/engineapi (a front
// end such as the cuzk.v1 server depends on it alone); every name is
// re-exported here, so engine.Request is engineapi.Request.

type (
	Kind            = engineapi.Kind
	Priority        = engineapi.Priority
	Request         = engineapi.Request
	State           = engineapi.State
	Timings         = engineapi.Timings
	Result          = engineapi.Result
	Ticket          = engineapi.Ticket
	Status          = engineapi.Status
	QueueStatus     = engineapi.QueueStatus
	JobStatus       = engineapi.JobStatus
	PartitionStatus = engineapi.PartitionStatus
	DeviceStatus    = engineapi.DeviceStatus
	ParamsStatus    = engineapi.ParamsStatus
	BudgetStatus    = engineapi.BudgetStatus
	Counters        = engineapi.Counters
)

const (
	KindUnspecified         = engineapi.KindUnspecified
	KindPoRepC2             = engineapi.KindPoRepC2
	KindSnapDealsUpdate     = engineapi.KindSnapDealsUpdate
	KindWindowPoStPartition = engineapi.KindWindowPoStPartition
	KindWinningPoSt         = engineapi.KindWinningPoSt
	PriorityUnspecified     = engineapi.PriorityUnspecified
	PriorityLow             = engineapi.PriorityLow
	PriorityNormal          = engineapi.PriorityNormal
	PriorityHigh            = engineapi.PriorityHigh
	PriorityCritical        = engineapi.PriorityCritical
	StateQueued             = engineapi.StateQueued
	StateRunning            = engineapi.StateRunning
	StateCompleted          = engineapi.StateCompleted
	StateFailed             = engineapi.StateFailed
	StateCancelled          = engineapi.StateCancelled
	BusyWindow              = engineapi.BusyWindow
)

var (
	ErrBadInput        = engineapi.ErrBadInput
	ErrUnsupportedKind = engineapi.ErrUnsupportedKind
	ErrUnknownJob      = engineapi.ErrUnknownJob
	ErrTooLarge        = engineapi.ErrTooLarge
	ErrQueueFull       = engineapi.ErrQueueFull
	ErrDraining        = engineapi.ErrDraining
)

// DefaultPriority is engineapi.DefaultPriority.
func DefaultPriority(k Kind) Priority { return engineapi.DefaultPriority(k) }
