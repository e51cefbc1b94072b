.mode list
SELECT n.Name, SUM(e.Energy) AS energy
  FROM PLAccountingOperator_Aggregate_RootNodeEnergy e
  JOIN PLAccountingOperator_EventNone_Nodes n ON n.ID = e.NodeID
 WHERE e.timeInterval = 3600 GROUP BY n.Name ORDER BY energy DESC;
SELECT r.Name, SUM(e.Energy) AS energy
  FROM PLAccountingOperator_Aggregate_RootNodeEnergy e
  JOIN PLAccountingOperator_EventNone_Nodes r ON r.ID = e.RootNodeID
 WHERE e.timeInterval = 3600 GROUP BY r.Name ORDER BY energy DESC;
SELECT datetime(b.timestamp + (SELECT o.system FROM PLStorageOperator_EventForward_TimeOffset o
                                WHERE o.timestamp <= b.timestamp ORDER BY o.timestamp DESC LIMIT 1), 'unixepoch'),
       b.Level, b.IsCharging
  FROM PLBatteryAgent_EventBackward_Battery b ORDER BY b.timestamp;
SELECT MIN(Level), MAX(Level) FROM PLBatteryAgent_EventBackward_Battery;
